/**
 * Canonical JSON: object keys sorted by code unit, no whitespace, `undefined` members dropped
 * and `undefined` array entries written as null (as JSON.stringify does). It is the byte form
 * every hash in a plan is taken over, so the same data always gives the same hash whatever
 * order its keys were built in. The writer streams into a sink, so hashing a plan of a large
 * fleet never builds the whole document as one string.
 *
 * The fast path is native: JSON.stringify with an array replacer writes each object's members
 * in the order of that array, so the sorted union of every key in a value makes its output
 * canonical without copying a single record (and records already built in key order need no
 * replacer at all). A replacer list makes JSON.stringify read every listed key of every record,
 * so these take the slow path, written member by member: a `toJSON` holder (its output's keys
 * are not known beforehand), a `__proto__` key (records without it would inherit
 * Object.prototype's under that name), a record that is not plain data (a Map, an Error: the
 * list would reach inherited and hidden members), and more distinct keys than MAX_LISTED (each
 * record would be checked against all of them). Plans are plain data and take the fast path.
 */
import { createHash } from 'node:crypto';

type Sink = (chunk: string) => void;

/** What a walk over a value found: every key, and whether every record already lists its keys sorted. */
interface KeyScan {
  keys: Set<string>;
  sorted: boolean;
  /** The previous record's key list and whether it was sorted: records of one shape repeat. */
  lastKeys: string[];
  lastSorted: boolean;
}

/** Adds the keys of every record in `value` to the scan; false when the value needs the slow path. */
function scanKeys(value: unknown, scan: KeyScan): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (Array.isArray(value)) {
    for (const entry of value) if (!scanKeys(entry, scan)) return false;
    return true;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  const record = value as Record<string, unknown>;
  const own = Object.keys(record);
  if (!sameKeys(own, scan.lastKeys)) {
    let sorted = true;
    for (let i = 0; i < own.length; i++) {
      const key = own[i] as string;
      if (key === '__proto__') return false;
      if (i > 0 && !((own[i - 1] as string) < key)) sorted = false;
      scan.keys.add(key);
    }
    if (scan.keys.size > MAX_LISTED) return false;
    scan.lastKeys = own;
    scan.lastSorted = sorted;
  }
  if (!scan.lastSorted) scan.sorted = false;
  for (const key of own) {
    const member = record[key];
    if (member !== null && typeof member === 'object' && !scanKeys(member, scan)) return false;
  }
  return true;
}

/** Distinct keys a replacer list may hold; a plan's records have about a dozen. */
const MAX_LISTED = 256;

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The canonical text of `value` as one string (used below the streamed levels). Records built
 * with their keys in order (the planner's) are written by a plain JSON.stringify; others with
 * the sorted keys as the replacer, which costs more.
 */
function serialise(value: unknown): string {
  const scan: KeyScan = { keys: new Set(), sorted: true, lastKeys: [], lastSorted: true };
  if (!scanKeys(value, scan)) return serialiseSlowly(value);
  // A plain write lists members in Object.keys order, which the scan found sorted.
  // Default sort compares UTF-16 code units: exactly the canonical key order.
  const text = scan.sorted ? JSON.stringify(value) : JSON.stringify(value, [...scan.keys].sort());
  return (text as string | undefined) ?? 'null';
}

/** The value as JSON.stringify sees it: dates and other toJSON holders converted first. */
function jsonValue(value: unknown): unknown {
  if (typeof (value as { toJSON?: unknown } | null)?.toJSON !== 'function') return value;
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? undefined : JSON.parse(text);
}

/** Members JSON.stringify leaves out of a record. */
function omitted(member: unknown): boolean {
  return member === undefined || typeof member === 'function' || typeof member === 'symbol';
}

function serialiseSlowly(value: unknown): string {
  const plain = jsonValue(value);
  if (plain === null || typeof plain !== 'object') {
    // As JSON.stringify: undefined, functions and symbols have no JSON form; null stands in.
    return (JSON.stringify(plain) as string | undefined) ?? 'null';
  }
  // Array.from visits holes (map skips them): a hole is written as null, as JSON.stringify does.
  if (Array.isArray(plain)) return `[${Array.from(plain, (entry) => serialise(entry)).join(',')}]`;
  const record = plain as Record<string, unknown>;
  const members: string[] = [];
  for (const key of Object.keys(record).sort()) {
    // As JSON.stringify: a member is left out when its JSON value (after toJSON) has no form.
    const member = jsonValue(record[key]);
    if (!omitted(member)) members.push(`${JSON.stringify(key)}:${serialise(member)}`);
  }
  return `{${members.join(',')}}`;
}

/**
 * Streams the top `depth` levels structurally and serialises deeper values whole: a plan's
 * size is in its top-level arrays, whose elements are small.
 */
function writeCanonical(value: unknown, sink: Sink, depth: number): void {
  const plain = jsonValue(value);
  if (depth === 0 || plain === null || typeof plain !== 'object') {
    sink(serialise(plain));
    return;
  }
  if (Array.isArray(plain)) {
    sink('[');
    if (depth === 1) writeElements(plain, sink);
    else {
      for (let i = 0; i < plain.length; i++) {
        if (i > 0) sink(',');
        writeCanonical(plain[i], sink, depth - 1);
      }
    }
    sink(']');
    return;
  }
  const record = plain as Record<string, unknown>;
  let first = true;
  sink('{');
  for (const key of Object.keys(record).sort()) {
    const member = jsonValue(record[key]);
    if (omitted(member)) continue;
    sink(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    writeCanonical(member, sink, depth - 1);
  }
  sink('}');
}

const BATCH = 1024;

/** The elements of a streamed array, comma-separated, one native call per batch. */
function writeElements(elements: readonly unknown[], sink: Sink): void {
  for (let start = 0; start < elements.length; start += BATCH) {
    if (start > 0) sink(',');
    // A slice shares the batch's characters; joining them with `+` would copy them again.
    sink(serialise(elements.slice(start, start + BATCH)).slice(1, -1));
  }
}

const STREAMED_LEVELS = 2;

/**
 * The canonical JSON of `value` as a member of a record, or undefined when JSON.stringify would
 * leave the member out (undefined, a function, a symbol, a toJSON giving one of those).
 */
export function canonicalMemberJson(value: unknown): string | undefined {
  const member = jsonValue(value);
  return omitted(member) ? undefined : canonicalJson(member);
}

export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  writeCanonical(value, (chunk) => parts.push(chunk), STREAMED_LEVELS);
  return parts.join('');
}

const SMALL_CHUNK = 4_096;

/**
 * sha256 (hex) of the canonical JSON of `value`. Large chunks (batches of elements) go to the
 * hash as they are; the many small ones (keys, brackets, commas) are gathered first, since
 * each update call has a fixed cost.
 */
export function canonicalSha256(value: unknown): string {
  const hash = createHash('sha256');
  let small = '';
  const flush = () => {
    if (small !== '') hash.update(small, 'utf8');
    small = '';
  };
  writeCanonical(
    value,
    (chunk) => {
      if (chunk.length >= SMALL_CHUNK) {
        flush();
        hash.update(chunk, 'utf8');
        return;
      }
      small += chunk;
      if (small.length >= SMALL_CHUNK) flush();
    },
    STREAMED_LEVELS,
  );
  flush();
  return hash.digest('hex');
}
