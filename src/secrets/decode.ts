/**
 * One layer of the escapes a server, a proxy or a log may spell a secret's characters with:
 * HTML character references (named ones for ASCII punctuation and the no-break space, decimal
 * `&#39;` and hex `&#x27;`, the `;` optional on numeric ones), percent-encoding (`%50`, `%c3%a9`:
 * runs of bytes read as UTF-8, either case of hex) and JSON string escapes (`\u0041`, `\/`, `\"`).
 * The decoded text remembers where each decoded character came from, so a secret found in it is
 * masked in the text as it was written, escapes and all.
 */
/** Where an escape may start. */
const INTRODUCER = /[&%\\]/g;

/** HTML's named references for the characters a secret is likely to hold (ASCII punctuation, no-break space). */
const NAMED: ReadonlyMap<string, string> = new Map([
  ['nbsp', '\u00a0'],
  ...(
    'amp & lt < gt > quot " apos \' sol / bsol \\ num # percnt % excl ! dollar $ lpar ( rpar ) ast * ' +
    'plus + comma , period . colon : semi ; equals = quest ? commat @ lsqb [ rsqb ] lbrack [ rbrack ] ' +
    'lowbar _ grave ` lcub { rcub } lbrace { rbrace } verbar | vert | hat ^ tilde ~ hyphen - dash -'
  )
    .split(' ')
    .flatMap((word, i, all) => (i % 2 === 0 ? [[word, all[i + 1] as string] as [string, string]] : [])),
]);
const SHORT: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** A decoded layer: its text, and per decoded escape [decodedStart, decodedEnd, rawStart, rawEnd]. */
export interface Decoded {
  text: string;
  spans: number[];
}

/** An escape read at a position: the characters it stands for and where it ends. */
interface Escape {
  chars: string;
  end: number;
}

/** `text` with one layer of escapes decoded, or undefined when it holds none. */
export function decodeLayer(text: string): Decoded | undefined {
  INTRODUCER.lastIndex = 0;
  let out = '';
  const spans: number[] = [];
  let raw = 0;
  for (let match = INTRODUCER.exec(text); match !== null; match = INTRODUCER.exec(text)) {
    const at = match.index;
    const code = text.charCodeAt(at);
    const found = code === 38 ? reference(text, at) : code === 92 ? jsonEscape(text, at) : undefined;
    if (code === 37) {
      const end = percentRun(text, at, (chars, from, to) => {
        out += text.slice(raw, from);
        spans.push(out.length, out.length + chars.length, from, to);
        out += chars;
        raw = to;
      });
      INTRODUCER.lastIndex = end;
      continue;
    }
    if (found === undefined) continue;
    out += text.slice(raw, at);
    spans.push(out.length, out.length + found.chars.length, at, found.end);
    out += found.chars;
    raw = found.end;
    INTRODUCER.lastIndex = found.end;
  }
  if (spans.length === 0) return undefined;
  return { text: out + text.slice(raw), spans };
}

/** `&#39;`, `&#x27;` (the `;` optional) or `&name;` at `at`. */
function reference(text: string, at: number): Escape | undefined {
  if (text.charCodeAt(at + 1) === 35) {
    const hex = (text.charCodeAt(at + 2) | 32) === 120;
    let i = at + (hex ? 3 : 2);
    let value = 0;
    const first = i;
    for (; i < text.length && i - first < (hex ? 6 : 7); i++) {
      const digit = digitValue(text.charCodeAt(i), hex ? 16 : 10);
      if (digit < 0) break;
      value = value * (hex ? 16 : 10) + digit;
    }
    if (i === first || value > 0x10ffff) return undefined;
    if (text.charCodeAt(i) === 59) i++;
    return { chars: String.fromCodePoint(value), end: i };
  }
  let i = at + 1;
  while (i < text.length && i - at <= 8 && isLetter(text.charCodeAt(i))) i++;
  if (i - at < 3 || text.charCodeAt(i) !== 59) return undefined;
  const chars = NAMED.get(text.slice(at + 1, i).toLowerCase());
  return chars === undefined ? undefined : { chars, end: i + 1 };
}

/** `\u0041` or a short escape (`\/`, `\"`, `\n` …) at `at`. */
function jsonEscape(text: string, at: number): Escape | undefined {
  const next = text[at + 1];
  if (next === undefined) return undefined;
  if (next !== 'u') {
    const chars = SHORT[next];
    return chars === undefined ? undefined : { chars, end: at + 2 };
  }
  let value = 0;
  for (let i = at + 2; i < at + 6; i++) {
    const digit = digitValue(text.charCodeAt(i), 16);
    if (digit < 0) return undefined;
    value = value * 16 + digit;
  }
  return { chars: String.fromCharCode(value), end: at + 6 };
}

/**
 * Decodes the run of `%XX` bytes at `at` as UTF-8, one character at a time (a stray byte stands
 * for itself); returns where the run ends (`at` itself when there is none).
 */
function percentRun(
  text: string,
  at: number,
  emit: (chars: string, from: number, to: number) => void,
): number {
  const bytes: number[] = [];
  let i = at;
  while (text.charCodeAt(i) === 37) {
    const high = digitValue(text.charCodeAt(i + 1), 16);
    const low = high < 0 ? -1 : digitValue(text.charCodeAt(i + 2), 16);
    if (low < 0) break;
    bytes.push(high * 16 + low);
    i += 3;
  }
  for (let k = 0; k < bytes.length; ) {
    const n = sequenceLength(bytes, k);
    const chars = n === 1 ? String.fromCharCode(bytes[k] as number) : utf8(bytes, k, n);
    emit(chars, at + 3 * k, at + 3 * (k + n));
    k += n;
  }
  return Math.max(i, at + 1);
}

function utf8(bytes: number[], k: number, n: number): string {
  const lead = bytes[k] as number;
  let code = lead & (n === 2 ? 0x1f : n === 3 ? 0x0f : 0x07);
  for (let j = 1; j < n; j++) code = (code << 6) | ((bytes[k + j] as number) & 0x3f);
  return String.fromCodePoint(code);
}

/** The length of the UTF-8 sequence at `k` when it is valid (no overlong form, no surrogate), else 1. */
function sequenceLength(bytes: number[], k: number): number {
  const lead = bytes[k] as number;
  const n =
    lead >= 0xc2 && lead <= 0xdf
      ? 2
      : lead >= 0xe0 && lead <= 0xef
        ? 3
        : lead >= 0xf0 && lead <= 0xf4
          ? 4
          : 1;
  for (let j = 1; j < n; j++) {
    const next = bytes[k + j];
    if (next === undefined || (next & 0xc0) !== 0x80) return 1;
  }
  if (n === 1) return 1;
  const second = bytes[k + 1] as number;
  if (lead === 0xe0 && second < 0xa0) return 1;
  if (lead === 0xed && second >= 0xa0) return 1;
  if (lead === 0xf0 && second < 0x90) return 1;
  if (lead === 0xf4 && second >= 0x90) return 1;
  return n;
}

function digitValue(code: number, base: 10 | 16): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (base === 10) return -1;
  const lower = code | 32;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

function isLetter(code: number): boolean {
  const lower = code | 32;
  return lower >= 97 && lower <= 122;
}

/** Where decoded position `p` starts in the layer's input (a position inside an escape: the escape's start). */
export function rawStart(spans: number[], p: number): number {
  const k = spanAt(spans, p);
  if (k < 0) return p;
  const d1 = spans[k + 1] as number;
  return p < d1 ? (spans[k + 2] as number) : (spans[k + 3] as number) + p - d1;
}

/** Where a range ending (exclusive) at decoded position `p` ends in the layer's input. */
export function rawEnd(spans: number[], p: number): number {
  if (p === 0) return 0;
  const q = p - 1;
  const k = spanAt(spans, q);
  if (k < 0) return p;
  const d1 = spans[k + 1] as number;
  const r1 = spans[k + 3] as number;
  return q < d1 ? r1 : r1 + q - d1 + 1;
}

/** Index (a multiple of 4) of the last span whose decoded start is at or before `p`, or -1. */
function spanAt(spans: number[], p: number): number {
  let lo = 0;
  let hi = spans.length / 4 - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if ((spans[mid * 4] as number) <= p) {
      found = mid * 4;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
