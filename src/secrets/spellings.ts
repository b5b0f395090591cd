import { foldText, type IndexedSpelling } from './search.js';

/** The fewest characters of a secret a fragment must spell to be masked (and only in an echo). */
export const MIN_RUN = 8;
/** From this many characters on (spaces aside), a fragment is masked whatever characters it holds. */
const LONG_RUN = 16;
/** Base64 characters that spell MIN_RUN bytes (4 characters per 3 bytes, rounded up). */
const BASE64_RUN = Math.ceil((MIN_RUN * 4) / 3);
/** Spellings shorter than this are never looked for: they would mask ordinary text. */
const SHORTEST = 4;

/**
 * What SecretMask looks for, per secret and per half of a REST key `<secret>==<key>`: the text as
 * given and without its spaces (escapes are decoded before the search, see decode.ts; `+` and
 * U+00A0 compare as spaces); its hex; and its base64, standard and URL-safe, at each of the three
 * byte alignments it can have inside longer encoded data (`user:password` of a Basic login).
 */
export function secretSpellings(secrets: readonly string[]): IndexedSpelling[] {
  const spellings = new Map<string, IndexedSpelling>();
  const add = (form: string, run: number, kind: IndexedSpelling['kind']) => {
    if (form.length < SHORTEST || spellings.has(`${kind}:${form}`)) return;
    const folded = foldText(form);
    spellings.set(`${kind}:${form}`, { form, folded, need: Math.min(run, form.length), kind });
  };
  for (const secret of secrets) {
    const parts = secret.includes('==') ? [secret, ...secret.split('==')] : [secret];
    for (const part of parts) {
      const forms = new Set([part, part.replace(/\s+/g, '')]);
      for (const form of forms) {
        add(form, MIN_RUN, 'text');
        const bytes = Buffer.from(form, 'utf8');
        add(bytes.toString('hex'), 2 * MIN_RUN, 'hex');
        for (const base64 of alignedBase64(bytes)) {
          add(base64, BASE64_RUN, 'base64');
          add(base64.replace(/\+/g, '-').replace(/\//g, '_'), BASE64_RUN, 'base64');
        }
      }
    }
  }
  return [...spellings.values()];
}

/**
 * The base64 characters that `bytes` alone decide, wherever they sit in longer data: after 0, 1 or
 * 2 bytes of something else, with the last character (which also holds the next byte's bits) once
 * as at the end of the data and once left out.
 */
function alignedBase64(bytes: Buffer): string[] {
  const out: string[] = [];
  for (const before of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(before), bytes])
      .toString('base64')
      .replace(/=+$/, '');
    const inner = encoded.slice([0, 2, 3][before]);
    out.push(inner);
    if ((before + bytes.length) % 3 !== 0) out.push(inner.slice(0, -1));
  }
  return out;
}

/**
 * Whether a run of a secret's characters is worth masking when it is not the whole secret: at
 * least MIN_RUN characters, and not wordlike. Text of the dashboard's own may hold a word or a run
 * of words ("PASSWORD", "demoPASSword") by chance, never such a run.
 */
export function strongFragment(fragment: string): boolean {
  return fragment.length >= MIN_RUN && !wordlike(fragment);
}

/**
 * Whether text is like a word or words: besides spaces, shorter than LONG_RUN and of one kind of
 * character only (letters, digits, or other symbols). A whole secret that is not wordlike is
 * masked in any letter case; one that is, only in its own.
 */
export function wordlike(text: string): boolean {
  const chars = text.replace(/[\s+\u00a0]+/g, '');
  if (chars.length >= LONG_RUN) return false;
  return [/\p{L}/u, /\p{N}/u, /[^\p{L}\p{N}]/u].filter((kind) => kind.test(chars)).length < 2;
}
