/**
 * The one mask for credentials, used by every way text leaves svc-gitops or enters it from the
 * dashboard: parsed dashboard answers (echoes.ts), error messages (status.ts), and the CLI's
 * stdout, stderr, files and GitHub bodies (cli/run.ts).
 *
 * A secret is masked in every spelling a server, a proxy or a log may give it: as given, without
 * its spaces (application passwords are shown with them), with each space as `+`, `%20`,
 * `&#32;`, `&#x20;`, `&nbsp;` or U+00A0, percent-encoded, JSON-escaped, base64 (standard and
 * URL-safe), hex,
 * and each half of a REST key `<secret>==<key>`; in any ASCII letter case; and not only whole:
 * any run of one of those spellings that spells MIN_RUN characters of the secret is masked (a
 * prefix cut off by a length limit is still most of a password): MIN_RUN characters of a plain
 * spelling, 2 × MIN_RUN of hex, 11 of base64. (Counting encoded characters instead would let 8
 * hex digits, 4 bytes, mask a plan's fingerprints by chance.) Spellings shorter than their run
 * are masked only whole, and shorter than 4 not at all (they would mask ordinary text).
 *
 * Cost: about a quarter of a pass over the text. Any run of at least STRIDE_SPAN characters of
 * the text covers two characters 4 apart that start at a multiple of 4, and the 4-gram that starts
 * at the first of them; both are the spelling's (at some offset). The pass reads one character in
 * four, rules most positions out with a bitmap of the spellings' character pairs 4 apart, then
 * most of the rest with a bitmap of their 4-grams' hashes, and only where a 4-gram is found
 * compares characters and extends the run. Spellings that may match fewer than STRIDE_SPAN
 * characters (a secret shorter than a run) are looked for at every position instead, in a second
 * pass made only when such a spelling exists.
 */
export const MIN_RUN = 8;
const GRAM = 4;
/** The shortest run sure to cover two characters 4 apart of which the first is at a multiple of 4. */
const STRIDE_SPAN = 2 * GRAM;

interface Anchor {
  form: string;
  /** Where the 4-gram starts in `form`. */
  at: number;
  /** Characters of `form` a match must span (the whole form when shorter). */
  need: number;
}

export interface Spelling {
  form: string;
  /** Characters of this spelling that stand for MIN_RUN characters of the secret. */
  run: number;
}

export class SecretMask {
  private secrets: string[] = [];
  /** Every 4-gram of every spelling that matches at least STRIDE_SPAN characters, at any offset. */
  private strided = new GramIndex();
  /** The 4-grams at offsets 0, 4, 8, … of spellings that may match fewer (short secrets). */
  private everywhere = new GramIndex();
  private empty = true;

  constructor(
    secrets: ReadonlyArray<string | undefined> = [],
    private readonly replacement = '[redacted]',
  ) {
    this.add(secrets);
  }

  /** Masks these values too from now on (undefined and empty ones are ignored). */
  add(secrets: ReadonlyArray<string | undefined>): void {
    const fresh = secrets.filter(
      (s): s is string => typeof s === 'string' && s !== '' && !this.secrets.includes(s),
    );
    if (fresh.length === 0) return;
    this.secrets.push(...fresh);
    for (const spelling of secretSpellings(fresh)) this.index(spelling);
  }

  /** Whether `text` holds anything this mask would replace. */
  finds(text: string): boolean {
    return !this.empty && this.ranges(text, true).length > 0;
  }

  mask(text: string): string {
    if (this.empty) return text;
    const ranges = this.ranges(text, false);
    if (ranges.length === 0) return text;
    let out = '';
    let last = 0;
    for (const [start, end] of ranges) {
      out += text.slice(last, start) + this.replacement;
      last = end;
    }
    return out + text.slice(last);
  }

  private index(spelling: Spelling): void {
    const form = foldCase(spelling.form);
    if (form.length < GRAM) return;
    this.empty = false;
    const need = Math.min(spelling.run, form.length);
    const short = need < STRIDE_SPAN;
    const step = short ? GRAM : 1;
    for (let at = 0; at + GRAM <= form.length; at += step)
      (short ? this.everywhere : this.strided).add({ form, at, need });
    if (!short) this.strided.addPairs(form);
  }

  /** Merged [start, end) ranges of `text` to mask, in order; with `first`, at most one. */
  private ranges(text: string, first: boolean): Array<[number, number]> {
    const found: Array<[number, number]> = [];
    const strided = this.strided;
    if (!strided.empty) {
      const { pairs, bitmap } = strided;
      let ahead = fold(text.charCodeAt(0)) & 0xff;
      for (let start = 0; start + GRAM < text.length; start += GRAM) {
        const here = ahead;
        ahead = fold(text.charCodeAt(start + GRAM)) & 0xff;
        const pair = (here << 8) | ahead;
        if ((((pairs[pair >>> 3] as number) >>> (pair & 7)) & 1) === 0) continue;
        const key =
          ((here << 24) |
            ((fold(text.charCodeAt(start + 1)) & 0xff) << 16) |
            ((fold(text.charCodeAt(start + 2)) & 0xff) << 8) |
            (fold(text.charCodeAt(start + 3)) & 0xff)) >>>
          0;
        const h = hashOf(key);
        if ((((bitmap[h >>> 3] as number) >>> (h & 7)) & 1) === 0) continue;
        if (strided.matches(text, start, key, found) && first) return found;
      }
    }
    if (!this.everywhere.empty && !(first && found.length > 0)) {
      let key = 0;
      for (let i = 0; i < text.length; i++) {
        key = ((key << 8) | (fold(text.charCodeAt(i)) & 0xff)) >>> 0;
        if (i < GRAM - 1 || !this.everywhere.has(key)) continue;
        if (this.everywhere.matches(text, i - GRAM + 1, key, found) && first) return found;
      }
    }
    return merge(found);
  }
}

/**
 * Spellings' 4-grams by key, with a bitmap of their hashes that rules most keys out at once. The
 * bitmaps (136 KiB) are made at the first 4-gram: most masks index no short spelling, and a mask
 * is made for each error message.
 */
class GramIndex {
  bitmap = NO_BITS;
  /** One bit per pair of characters 4 apart (low bytes of their codes) in an indexed spelling. */
  pairs = NO_BITS;
  private anchors = new Map<number, Anchor[]>();
  empty = true;

  add(anchor: Anchor): void {
    if (this.empty) {
      this.bitmap = new Uint8Array(BITMAP_BYTES);
      this.pairs = new Uint8Array(PAIR_BITMAP_BYTES);
    }
    const key = keyOf(anchor.form, anchor.at);
    const list = this.anchors.get(key);
    if (list) {
      if (!list.some((a) => a.form === anchor.form && a.at === anchor.at)) list.push(anchor);
    } else this.anchors.set(key, [anchor]);
    const h = hashOf(key);
    this.bitmap[h >>> 3] = (this.bitmap[h >>> 3] as number) | (1 << (h & 7));
    this.empty = false;
  }

  addPairs(form: string): void {
    for (let j = 0; j + GRAM < form.length; j++) {
      const pair = ((form.charCodeAt(j) & 0xff) << 8) | (form.charCodeAt(j + GRAM) & 0xff);
      this.pairs[pair >>> 3] = (this.pairs[pair >>> 3] as number) | (1 << (pair & 7));
    }
  }

  has(key: number): boolean {
    const h = hashOf(key);
    return (((this.bitmap[h >>> 3] as number) >>> (h & 7)) & 1) === 1 && this.anchors.has(key);
  }

  /** Adds to `found` each long-enough run around `text[start..start+4)`; whether there was one. */
  matches(text: string, start: number, key: number, found: Array<[number, number]>): boolean {
    const anchors = this.anchors.get(key);
    if (!anchors) return false;
    let any = false;
    for (const anchor of anchors) {
      const run = matchAround(text, start, anchor);
      if (run) {
        found.push(run);
        any = true;
      }
    }
    return any;
  }
}

/** The run of `anchor.form` around `text[start..start+4)`, if it is long enough to mask. */
function matchAround(text: string, start: number, { form, at, need }: Anchor): [number, number] | undefined {
  for (let j = 0; j < GRAM; j++)
    if (fold(text.charCodeAt(start + j)) !== form.charCodeAt(at + j)) return undefined;
  let left = 0;
  while (
    at - left > 0 &&
    start - left > 0 &&
    fold(text.charCodeAt(start - left - 1)) === form.charCodeAt(at - left - 1)
  )
    left++;
  let right = GRAM;
  while (
    at + right < form.length &&
    start + right < text.length &&
    fold(text.charCodeAt(start + right)) === form.charCodeAt(at + right)
  )
    right++;
  return left + right >= need ? [start - left, start + right] : undefined;
}

function merge(ranges: Array<[number, number]>): Array<[number, number]> {
  if (ranges.length < 2) return ranges;
  ranges.sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [ranges[0] as [number, number]];
  for (const [start, end] of ranges.slice(1)) {
    const last = out[out.length - 1] as [number, number];
    if (start <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}

/** 2^20 bits. */
const BITMAP_BYTES = 1 << 17;
/** 2^16 bits: every pair of low bytes. */
const PAIR_BITMAP_BYTES = 1 << 13;
/** An index's bitmaps before its first 4-gram (never read: an empty index is skipped). */
const NO_BITS = new Uint8Array(0);

/** Fibonacci hashing of a 4-gram key to 20 bits. */
function hashOf(key: number): number {
  return Math.imul(key, 0x9e3779b1) >>> 12;
}

function keyOf(form: string, at: number): number {
  let key = 0;
  for (let j = 0; j < GRAM; j++) key = ((key << 8) | (form.charCodeAt(at + j) & 0xff)) >>> 0;
  return key;
}

/** ASCII upper case to lower case; every other code unit as it is. */
function fold(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

function foldCase(text: string): string {
  return text.replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

const SPACE_SPELLINGS = [' ', '', '+', '%20', '&#32;', '&#x20;', '&nbsp;', '\u00a0'];

/** Every spelling of every secret that the mask looks for (see the module comment). */
export function secretSpellings(secrets: readonly string[]): Spelling[] {
  const forms = new Map<string, number>();
  const add = (form: string, run: number) => {
    if (form.length >= GRAM) forms.set(form, Math.min(forms.get(form) ?? run, run));
  };
  for (const secret of secrets) {
    for (const part of [secret, ...secret.split('==')]) {
      const words = part.split(/\s+/);
      for (const space of SPACE_SPELLINGS) {
        const form = words.join(space);
        add(form, MIN_RUN);
        add(percentEncoded(form), MIN_RUN);
        add(JSON.stringify(form).slice(1, -1), MIN_RUN);
      }
      for (const form of [part, words.join('')]) {
        const bytes = Buffer.from(form, 'utf8');
        const base64 = bytes.toString('base64').replace(/=+$/, '');
        add(base64, BASE64_RUN);
        add(base64.replace(/\+/g, '-').replace(/\//g, '_'), BASE64_RUN);
        add(bytes.toString('hex'), 2 * MIN_RUN);
      }
    }
  }
  return [...forms].map(([form, run]) => ({ form, run }));
}

/** Base64 characters that spell MIN_RUN bytes (4 characters per 3 bytes, rounded up). */
const BASE64_RUN = Math.ceil((MIN_RUN * 4) / 3);

function percentEncoded(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text; // a lone surrogate has no encoded spelling
  }
}
