import { decodeLayer, rawEnd, rawStart } from './decode.js';
import { type Candidate, foldSpace, SpellingSearch } from './search.js';
import { secretSpellings, strongFragment, wordlike } from './spellings.js';

/** What every masked secret is replaced with, on every channel. */
export const MASK = '[redacted]';

/** Escapes within escapes (`&amp;#39;`, a JSON string of percent-encoded text) are undone this deep. */
const MAX_LAYERS = 4;

/**
 * The one mask for credentials: every way text leaves svc-gitops (stdout, stderr, every file it
 * writes, bodies sent to GitHub, the tool server's answers and log) and every answer that enters
 * it from the dashboard or GitHub passes one of these. The guarantee:
 *
 * - `mask` (text svc-gitops wrote, or mixed with what it quotes): each whole secret is replaced
 *   wherever it appears in any spelling: as given or without its spaces, behind any mix of HTML
 *   character references (named, decimal, hex), percent-encoding (either case of hex) and JSON
 *   escapes, nested up to MAX_LAYERS deep; `+` or U+00A0 for a space; hex; base64 (standard or
 *   URL-safe, also inside longer data such as a Basic login's `user:password`). In any letter case
 *   too, except a secret that is wordlike (see wordlike), which only matches in its own case. Nothing but a whole secret is masked here: a word a password happens to contain
 *   ("PASSWORD" in SVC_APP_PASSWORD) stays readable in the tool's own hints and messages.
 * - `maskEcho` (text a server sent): all of the above, and also any run of at least MIN_RUN
 *   characters of a secret (hex or base64 of one: 16 or 11 characters, base64 in its own case)
 *   that is strong (see strongFragment): a prefix cut off by a length limit is still most of a
 *   password, while a word or run of words the secret holds is left alone, in any case, so the
 *   dashboard's own messages stay readable.
 */
export class SecretMask {
  private readonly secrets: string[] = [];
  private readonly search = new SpellingSearch();

  constructor(secrets: ReadonlyArray<string | undefined> = []) {
    this.add(secrets);
  }

  /** Masks these values too from now on (undefined and empty ones are ignored). */
  add(secrets: ReadonlyArray<string | undefined>): void {
    const fresh = secrets.filter(
      (s): s is string => typeof s === 'string' && s !== '' && !this.secrets.includes(s),
    );
    if (fresh.length === 0) return;
    this.secrets.push(...fresh);
    for (const spelling of secretSpellings(fresh)) this.search.add(spelling);
  }

  /** Whether `text` holds a whole secret in any spelling. */
  finds(text: string): boolean {
    return this.ranges(text, false, true).length > 0;
  }

  /** Whether `text`, from a server, holds a secret or a strong run of one. */
  findsEcho(text: string): boolean {
    return this.ranges(text, true, true).length > 0;
  }

  mask(text: string): string {
    return this.replace(text, false);
  }

  maskEcho(text: string): string {
    return this.replace(text, true);
  }

  private replace(text: string, echo: boolean): string {
    const ranges = this.ranges(text, echo, false);
    if (ranges.length === 0) return text;
    let out = '';
    let last = 0;
    for (const [start, end] of ranges) {
      out += text.slice(last, start) + MASK;
      last = end;
    }
    return out + text.slice(last);
  }

  /** Merged [start, end) ranges of `text` to mask, in order; with `first`, at most one. */
  private ranges(text: string, echo: boolean, first: boolean): Array<[number, number]> {
    if (this.search.empty || text.length === 0) return [];
    const found: Array<[number, number]> = [];
    /** Decoded layers' spans, the outermost (the text's own escapes) first. */
    const layers: number[][] = [];
    const collect = (layer: string): boolean => {
      this.search.find(layer, (candidate) => {
        for (const [start, end] of accepted(layer, candidate, echo)) found.push(toRaw(layers, start, end));
        return first && found.length > 0;
      });
      return first && found.length > 0;
    };
    if (collect(text)) return found;
    let current = text;
    for (let depth = 0; depth < MAX_LAYERS; depth++) {
      const decoded = decodeLayer(current);
      if (!decoded) break;
      layers.push(decoded.spans);
      current = decoded.text;
      if (collect(current)) return found;
    }
    return merge(found);
  }
}

/** A range of the innermost decoded layer as a range of the text as written. */
function toRaw(layers: number[][], start: number, end: number): [number, number] {
  for (let k = layers.length - 1; k >= 0; k--) {
    const spans = layers[k] as number[];
    [start, end] = [rawStart(spans, start), rawEnd(spans, end)];
  }
  return [start, end];
}

/** The parts of a folded-equal run that are masked (see SecretMask's guarantee). */
function accepted(text: string, found: Candidate, echo: boolean): Array<[number, number]> {
  const { spelling, start, end, at } = found;
  const { form, kind } = spelling;
  const whole = end - start === form.length;
  if (kind === 'hex') return whole || echo ? [[start, end]] : [];
  if (whole && kind === 'text' && !wordlike(form)) return [[start, end]];
  if (echo && kind === 'text' && strongFragment(form.slice(at, at + end - start))) return [[start, end]];
  const out: Array<[number, number]> = [];
  for (let i = start; i < end; ) {
    if (!sameChar(text, i, form, at + i - start)) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < end && sameChar(text, j, form, at + j - start)) j++;
    const run = form.slice(at + i - start, at + j - start);
    const masked =
      run.length === form.length ||
      (echo && run.length >= spelling.need && (kind === 'base64' || strongFragment(run)));
    if (masked) out.push([i, j]);
    i = j;
  }
  return out;
}

function sameChar(text: string, i: number, form: string, j: number): boolean {
  return foldSpace(text.charCodeAt(i)) === foldSpace(form.charCodeAt(j));
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
