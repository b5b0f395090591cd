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

function sortedKeys(record: Record<string, unknown>): string[] {
  return Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
}

function collectKeys(value: unknown, keys: Set<string>): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const entry of value) collectKeys(entry, keys);
    return;
  }
  for (const [key, member] of Object.entries(value)) {
    keys.add(key);
    collectKeys(member, keys);
  }
}

/**
 * The canonical text of one (small) value as a string. JSON.stringify with a property list
 * writes every object's keys in the list's order, so the sorted union of the value's keys
 * gives code-unit key order at every depth, natively (integer-like keys included).
 */
function serialise(value: unknown): string {
  if (value === null || typeof value !== 'object')
    return value === undefined ? 'null' : JSON.stringify(value);
  const keys = new Set<string>();
  collectKeys(value, keys);
  return JSON.stringify(value, [...keys].sort());
}

/**
 * Streams the top `depth` levels structurally and serialises deeper values whole: a plan's
 * size is in its top-level arrays, whose elements are small.
 */
function writeCanonical(value: unknown, sink: Sink, depth: number): void {
  if (depth === 0 || value === null || typeof value !== 'object') {
    sink(serialise(value));
    return;
  }
  if (Array.isArray(value)) {
    sink('[');
    value.forEach((entry, index) => {
      if (index > 0) sink(',');
      writeCanonical(entry, sink, depth - 1);
    });
    sink(']');
    return;
  }
  const record = value as Record<string, unknown>;
  sink('{');
  sortedKeys(record).forEach((key, index) => {
    sink(`${index > 0 ? ',' : ''}${JSON.stringify(key)}:`);
    writeCanonical(record[key], sink, depth - 1);
  });
  sink('}');
}

const STREAMED_LEVELS = 2;

export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  writeCanonical(value, (chunk) => parts.push(chunk), STREAMED_LEVELS);
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
