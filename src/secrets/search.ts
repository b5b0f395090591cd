/**
 * The search under SecretMask: every run of an indexed spelling that is long enough to matter,
 * compared with letter case and space spellings folded (`A`/`a`, and ` `, `+`, U+00A0). Which of
 * those runs are masked is decided by the caller (mask.ts), on the exact characters.
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
const GRAM = 4;
/** The shortest run sure to cover two characters 4 apart of which the first is at a multiple of 4. */
const STRIDE_SPAN = 2 * GRAM;

/** How a spelling's characters compare: text by exact characters, hex in either case, base64 exactly. */
export type SpellingKind = 'text' | 'hex' | 'base64';

export interface IndexedSpelling {
  /** As the secret spells it. */
  form: string;
  /** `form` folded (see fold). */
  folded: string;
  /** The shortest run of it worth finding (the whole form when shorter). */
  need: number;
  kind: SpellingKind;
}

/** A run of a spelling found in a text: text[start, end) is folded-equal to form[at, at + end - start). */
export interface Candidate {
  start: number;
  end: number;
  spelling: IndexedSpelling;
  at: number;
}

interface Anchor {
  spelling: IndexedSpelling;
  /** Where the 4-gram starts in the folded form. */
  at: number;
}

export class SpellingSearch {
  /** Every 4-gram of every spelling that matches at least STRIDE_SPAN characters, at any offset. */
  private strided = new GramIndex();
  /** The 4-grams at offsets 0, 4, 8, … of spellings that may match fewer (short secrets). */
  private everywhere = new GramIndex();

  get empty(): boolean {
    return this.strided.empty && this.everywhere.empty;
  }

  add(spelling: IndexedSpelling): void {
    const { folded, need } = spelling;
    if (folded.length < GRAM) return;
    const short = need < STRIDE_SPAN;
    const step = short ? GRAM : 1;
    for (let at = 0; at + GRAM <= folded.length; at += step)
      (short ? this.everywhere : this.strided).add({ spelling, at });
    if (!short) this.strided.addPairs(folded);
  }

  /** Every long-enough run in `text`; `accept` may stop the search by returning true. */
  find(text: string, accept: (found: Candidate) => boolean): void {
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
        if (strided.matches(text, start, key, accept)) return;
      }
    }
    if (this.everywhere.empty) return;
    let key = 0;
    for (let i = 0; i < text.length; i++) {
      key = ((key << 8) | (fold(text.charCodeAt(i)) & 0xff)) >>> 0;
      if (i < GRAM - 1 || !this.everywhere.has(key)) continue;
      if (this.everywhere.matches(text, i - GRAM + 1, key, accept)) return;
    }
  }
}

/**
 * Spellings' 4-grams by key, with a bitmap of their hashes that rules most keys out at once. The
 * bitmaps (136 KiB) are made at the first 4-gram: most masks index no short spelling.
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
    const key = keyOf(anchor.spelling.folded, anchor.at);
    const list = this.anchors.get(key);
    if (list) {
      if (!list.some((a) => a.spelling === anchor.spelling && a.at === anchor.at)) list.push(anchor);
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

  /** Hands each long-enough run around `text[start..start+4)` to `accept`; true when it asked to stop. */
  matches(text: string, start: number, key: number, accept: (found: Candidate) => boolean): boolean {
    const anchors = this.anchors.get(key);
    if (!anchors) return false;
    for (const anchor of anchors) {
      const run = matchAround(text, start, anchor);
      if (run && accept(run)) return true;
    }
    return false;
  }
}

/** The run of the anchor's spelling around `text[start..start+4)`, if it is long enough. */
function matchAround(text: string, start: number, { spelling, at }: Anchor): Candidate | undefined {
  const form = spelling.folded;
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
  if (left + right < spelling.need) return undefined;
  return { start: start - left, end: start + right, spelling, at: at - left };
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

/** ASCII upper case to lower case, `+` and U+00A0 to a space; every other code unit as it is. */
function fold(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : foldSpace(code);
}

/** The space spellings folded alone (exact comparisons treat them as one character). */
export function foldSpace(code: number): number {
  return code === 43 || code === 0xa0 ? 32 : code;
}

export function foldText(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += String.fromCharCode(fold(text.charCodeAt(i)));
  return out;
}
