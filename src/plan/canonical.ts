/**
 * Canonical JSON: object keys sorted by code unit, no whitespace, `undefined` members dropped
 * and `undefined` array entries written as null (as JSON.stringify does). It is the byte form
 * every hash in a plan is taken over, so the same data always gives the same hash whatever
 * order its keys were built in. The writer streams into a sink, so hashing a plan of a large
 * fleet never builds the whole document as one string.
 */
import { createHash } from 'node:crypto';
import type { Plan } from '../types.js';

type Sink = (chunk: string) => void;

interface Shape {
  keys: string[];
  sorted: string[];
  /**
   * True when a key cannot go into a plain copy as it is: an array index ("0", "17"), which
   * engines enumerate first in numeric order whatever the insertion order, or "__proto__",
   * which an assignment would take as the copy's prototype. Such records are written by hand.
   */
  handWritten: boolean;
}

type ShapeOf = (record: Record<string, unknown>) => Shape;

const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;

/**
 * The shape of records (their keys, sorted by code unit), remembered per key sequence: a plan
 * holds tens of thousands of records of a handful of shapes, and sorting each one's keys again
 * dominated hashing. A hit is confirmed key by key, so two key lists never share an entry.
 */
function shapes(): ShapeOf {
  const byKeys = new Map<string, Shape>();
  return (record) => {
    const keys = Object.keys(record);
    const joined = keys.join('\u0000');
    const known = byKeys.get(joined);
    if (known && known.keys.length === keys.length && known.keys.every((key, i) => key === keys[i])) {
      return known;
    }
    const shape = {
      keys,
      sorted: [...keys].sort(),
      handWritten: keys.some((key) => ARRAY_INDEX.test(key) || key === '__proto__'),
    };
    byKeys.set(joined, shape);
    return shape;
  };
}

/** The value as JSON.stringify sees it: dates and other toJSON holders converted first. */
function jsonValue(value: unknown): unknown {
  if (typeof (value as { toJSON?: unknown } | null)?.toJSON !== 'function') return value;
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? undefined : JSON.parse(text);
}

/**
 * A copy of `value` with every record's keys inserted in code-unit order, so JSON.stringify
 * (which keeps insertion order) writes canonical text natively; undefined when some record has
 * array-index keys and must be written by hand.
 */
function sortedCopy(value: unknown, shapeOf: ShapeOf): unknown {
  if (value === null || typeof value !== 'object') return value;
  const plain = jsonValue(value);
  if (plain === null || typeof plain !== 'object') return plain;
  if (Array.isArray(plain)) {
    const copy: unknown[] = new Array(plain.length);
    for (let i = 0; i < plain.length; i++) {
      const entry = plain[i];
      const copied = sortedCopy(entry, shapeOf);
      if (copied === undefined && entry !== undefined) return undefined;
      copy[i] = copied;
    }
    return copy;
  }
  const record = plain as Record<string, unknown>;
  const shape = shapeOf(record);
  if (shape.handWritten) return undefined;
  const copy: Record<string, unknown> = {};
  for (const key of shape.sorted) {
    const member = record[key];
    const copied = sortedCopy(member, shapeOf);
    if (copied === undefined && member !== undefined) return undefined;
    copy[key] = copied;
  }
  return copy;
}

/** The canonical text of `value` as one string (used below the streamed levels). */
function serialise(value: unknown, shapeOf: ShapeOf): string {
  if (value === null || typeof value !== 'object') {
    // As JSON.stringify: undefined, functions and symbols have no JSON form; null stands in.
    return (JSON.stringify(value) as string | undefined) ?? 'null';
  }
  const copy = sortedCopy(value, shapeOf);
  if (copy !== undefined) return JSON.stringify(copy);
  // The slow path, for values holding index-keyed records: written member by member.
  const plain = jsonValue(value);
  if (plain === null || typeof plain !== 'object') return serialise(plain, shapeOf);
  if (Array.isArray(plain)) return `[${plain.map((entry) => serialise(entry, shapeOf)).join(',')}]`;
  const record = plain as Record<string, unknown>;
  const members = shapeOf(record)
    .sorted.filter((key) => !omitted(record[key]))
    .map((key) => `${JSON.stringify(key)}:${serialise(record[key], shapeOf)}`);
  return `{${members.join(',')}}`;
}

/** Members JSON.stringify leaves out of a record. */
function omitted(member: unknown): boolean {
  return member === undefined || typeof member === 'function' || typeof member === 'symbol';
}

/**
 * Streams the top `depth` levels structurally and serialises deeper values whole: a plan's
 * size is in its top-level arrays, whose elements are small.
 */
function writeCanonical(value: unknown, sink: Sink, depth: number, shapeOf: ShapeOf): void {
  const plain = jsonValue(value);
  if (depth === 0 || plain === null || typeof plain !== 'object') {
    sink(serialise(plain, shapeOf));
    return;
  }
  if (Array.isArray(plain)) {
    sink('[');
    if (depth === 1) writeElements(plain, sink, shapeOf);
    else {
      for (let i = 0; i < plain.length; i++) {
        if (i > 0) sink(',');
        writeCanonical(plain[i], sink, depth - 1, shapeOf);
      }
    }
    sink(']');
    return;
  }
  const record = plain as Record<string, unknown>;
  let first = true;
  sink('{');
  for (const key of shapeOf(record).sorted) {
    if (omitted(record[key])) continue;
    sink(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    writeCanonical(record[key], sink, depth - 1, shapeOf);
  }
  sink('}');
}

const BATCH = 1024;

/**
 * The elements of a streamed array, comma-separated: one native JSON.stringify per batch of
 * sorted copies (one call per element cost as much again as the writing itself).
 */
function writeElements(elements: readonly unknown[], sink: Sink, shapeOf: ShapeOf): void {
  for (let start = 0; start < elements.length; start += BATCH) {
    const batch = elements.slice(start, start + BATCH);
    const copy = sortedCopy(batch, shapeOf);
    const text =
      copy === undefined
        ? batch.map((element) => serialise(element, shapeOf)).join(',')
        : JSON.stringify(copy).slice(1, -1);
    sink(start > 0 ? `,${text}` : text);
  }
}

const STREAMED_LEVELS = 2;

export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  writeCanonical(value, (chunk) => parts.push(chunk), STREAMED_LEVELS, shapes());
  return parts.join('');
}

/** sha256 (hex) of the canonical JSON of `value`, fed to the hash in 64 KiB pieces. */
export function canonicalSha256(value: unknown): string {
  const hash = createHash('sha256');
  let buffer = '';
  writeCanonical(
    value,
    (chunk) => {
      buffer += chunk;
      if (buffer.length >= 65_536) {
        hash.update(buffer, 'utf8');
        buffer = '';
      }
    },
    STREAMED_LEVELS,
    shapes(),
  );
  return hash.update(buffer, 'utf8').digest('hex');
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The plan id: sha256 of the canonical JSON of every field but `id`. */
export function planId(planWithoutId: Omit<Plan, 'id'>): string {
  const { id: _ignored, ...rest } = planWithoutId as Omit<Plan, 'id'> & { id?: unknown };
  return canonicalSha256(rest);
}

/** True when the plan's id still matches its content (nothing was edited after planning). */
export function verifyPlanId(plan: Plan): boolean {
  const { id, ...rest } = plan;
  return typeof id === 'string' && id === planId(rest);
}
