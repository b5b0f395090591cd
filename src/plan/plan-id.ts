/**
 * The plan id: sha256 of the canonical JSON (canonical.ts) of every field of the plan but `id`.
 *
 * A fleet's plan is tens of thousands of actions, and this hash is most of what planning costs
 * after the site pass, so the two members that hold a plan's size are written here by hand:
 *   - an action with exactly the planner's fields is written from its values in sorted-key
 *     order, each distinct string escaped once (a fleet repeats the same few thousand);
 *   - `fingerprints`, a plain record of strings, is written key by key.
 * Anything else (an edited plan file, an unexpected field, a value of another type) is written
 * by the general canonical writer, so the bytes hashed are always exactly the canonical JSON;
 * tests compare the two writers on hostile plans.
 */
import { createHash, type Hash } from 'node:crypto';
import type { Plan } from '../types.js';
import { canonicalJson, canonicalMemberJson, canonicalSha256 } from './canonical.js';

type Quote = (text: string) => string;

/** JSON.stringify of each distinct string, once per plan. */
function quoteOncePerString(): Quote {
  const quoted = new Map<string, string>();
  return (text) => {
    let json = quoted.get(text);
    if (json === undefined) {
      json = JSON.stringify(text);
      quoted.set(text, json);
    }
    return json;
  };
}

/**
 * An action's keys in code-unit order, by which optional fields it has (1: from, 2: to, 4: wave).
 * A planner's record, or one read back from a saved plan, lists its keys in this order.
 */
const ACTION_KEYS: ReadonlyArray<readonly string[]> = Array.from({ length: 8 }, (_, optional) => [
  ...(optional & 1 ? ['from'] : []),
  ...['kind', 'name', 'op', 'reason', 'risk', 'site_id', 'site_url', 'slug'],
  ...(optional & 2 ? ['to'] : []),
  ...(optional & 4 ? ['wave'] : []),
]);

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return (
    (prototype === Object.prototype || prototype === null) &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}

function optionalText(value: unknown): value is string | undefined {
  return value === undefined || typeof value === 'string';
}

/**
 * The JSON from `"kind"` to `"site_id":` of an action: the part fixed by its item and verdict,
 * which a fleet repeats on every site. Remembered by name and reason, and checked against kind,
 * operation and risk before it is reused, so a segment is never written for another action.
 */
function middleSegments(quote: Quote) {
  interface Segment {
    kind: string;
    op: string;
    risk: string;
    text: string;
  }
  const byName = new Map<string, Map<string, Segment>>();
  return (kind: string, name: string, op: string, reason: string, risk: string): string => {
    let byReason = byName.get(name);
    if (!byReason) {
      byReason = new Map();
      byName.set(name, byReason);
    }
    let segment = byReason.get(reason);
    if (!segment || segment.kind !== kind || segment.op !== op || segment.risk !== risk) {
      const text = `"kind":${quote(kind)},"name":${quote(name)},"op":${quote(op)},"reason":${quote(reason)},"risk":${quote(risk)},"site_id":`;
      segment = { kind, op, risk, text };
      byReason.set(reason, segment);
    }
    return segment.text;
  };
}

/**
 * The canonical JSON of an action holding the planner's fields and no others, each of its
 * type; undefined for anything else (the caller writes that with the general writer). An
 * optional member present as `undefined` counts as another field, so it takes the general path.
 *
 * Written in a few large pieces (each one a node of the string the hash reads): the segment an
 * item and verdict fix, the site's segment and the wave's end, each remembered while it repeats.
 */
function plannedActionWriter(quote: Quote): (value: unknown) => string | undefined {
  const middle = middleSegments(quote);
  let siteId = Number.NaN;
  let siteUrl: string | undefined;
  let siteSegment = '';
  let wave: string | undefined;
  let waveEnd = '}';
  return (value) => {
    if (!isPlainRecord(value)) return undefined;
    const { from, kind, name, op, reason, risk, site_id, site_url, slug, to } = value;
    if (
      typeof kind !== 'string' ||
      typeof name !== 'string' ||
      typeof op !== 'string' ||
      typeof reason !== 'string' ||
      typeof risk !== 'string' ||
      typeof site_id !== 'number' ||
      !Number.isFinite(site_id) ||
      typeof site_url !== 'string' ||
      typeof slug !== 'string' ||
      !optionalText(from) ||
      !optionalText(to) ||
      !optionalText(value.wave)
    ) {
      return undefined;
    }
    // The record's own enumerable keys must be exactly the fields written, in that (sorted)
    // order: a value read here but not among them (inherited, hidden) sends it the general way.
    const keys = Object.keys(value);
    const optional =
      (from === undefined ? 0 : 1) | (to === undefined ? 0 : 2) | (value.wave === undefined ? 0 : 4);
    const expected = ACTION_KEYS[optional] as readonly string[];
    if (keys.length !== expected.length) return undefined;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== expected[i]) return undefined;
    if (!Object.is(site_id, siteId) || site_url !== siteUrl) {
      siteId = site_id;
      siteUrl = site_url;
      // A finite number's JSON is its String() form (-0 included: "0").
      siteSegment = `${String(site_id)},"site_url":${JSON.stringify(site_url)},"slug":`;
    }
    if (value.wave !== wave) {
      wave = value.wave;
      waveEnd = wave === undefined ? '}' : `,"wave":${quote(wave)}}`;
    }
    // Keys in code-unit order: from, kind, name, op, reason, risk, site_id, site_url, slug, to, wave.
    const head = from === undefined ? '{' : `{"from":${quote(from)},`;
    const tail = to === undefined ? waveEnd : `,"to":${quote(to)}${waveEnd}`;
    return `${head}${middle(kind, name, op, reason, risk)}${siteSegment}${quote(slug)}${tail}`;
  };
}

/** Feeds a hash in chunks of about CHUNK characters: one update call per action would cost more than the hashing. */
const CHUNK = 64 * 1024;

function chunkedHash(hash: Hash): { write(text: string): void; end(): void } {
  let pending = '';
  return {
    write(text) {
      pending += text;
      if (pending.length >= CHUNK) {
        hash.update(pending, 'utf8');
        pending = '';
      }
    },
    end() {
      if (pending !== '') hash.update(pending, 'utf8');
      pending = '';
    },
  };
}

function writeActions(actions: readonly unknown[], write: (text: string) => void, quote: Quote): void {
  const plannedActionJson = plannedActionWriter(quote);
  write('[');
  for (let i = 0; i < actions.length; i++) {
    const action = actions[i];
    if (i > 0) write(',');
    // An array hole or undefined entry is written as null, as canonicalJson does.
    write(plannedActionJson(action) ?? canonicalJson(action));
  }
  write(']');
}

/** Text JSON writes as it is, in quotes: a site id key, a fingerprint. */
const PLAIN = /^[0-9A-Za-z:]*$/;

/** A record of distinct strings (fingerprints), so not worth remembering their JSON. */
function writeStringRecord(record: Record<string, string>, write: (text: string) => void) {
  let first = true;
  write('{');
  // Default sort compares UTF-16 code units: the canonical key order ("10" before "9").
  for (const key of Object.keys(record).sort()) {
    const value = record[key] as string;
    const json =
      PLAIN.test(key) && PLAIN.test(value)
        ? `"${key}":"${value}"`
        : `${JSON.stringify(key)}:${JSON.stringify(value)}`;
    write(first ? json : `,${json}`);
    first = false;
  }
  write('}');
}

function isStringRecord(value: unknown): value is Record<string, string> {
  if (!isPlainRecord(value)) return false;
  for (const key in value) if (typeof value[key] !== 'string') return false;
  return true;
}

/** sha256 (hex) of the canonical JSON of `rest`, a plan without its id. */
function planContentSha256(rest: Record<string, unknown>): string {
  const { actions, fingerprints } = rest;
  const fast =
    typeof rest.toJSON !== 'function' &&
    Array.isArray(actions) &&
    typeof (actions as { toJSON?: unknown }).toJSON !== 'function' &&
    (fingerprints === undefined || isStringRecord(fingerprints));
  if (!fast) return canonicalSha256(rest);
  const hash = createHash('sha256');
  const out = chunkedHash(hash);
  const quote = quoteOncePerString();
  let first = true;
  out.write('{');
  for (const key of Object.keys(rest).sort()) {
    const value = rest[key];
    const head = `${first ? '' : ','}${JSON.stringify(key)}:`;
    if (key === 'actions') {
      out.write(head);
      writeActions(value as unknown[], out.write, quote);
    } else if (key === 'fingerprints' && value !== undefined) {
      out.write(head);
      writeStringRecord(value as Record<string, string>, out.write);
    } else {
      const json = canonicalMemberJson(value);
      if (json === undefined) continue;
      out.write(head + json);
    }
    first = false;
  }
  out.write('}');
  out.end();
  return hash.digest('hex');
}

/** The plan id: sha256 of the canonical JSON of every field but `id`. */
export function planId(planWithoutId: Omit<Plan, 'id'>): string {
  const { id: _ignored, ...rest } = planWithoutId as Omit<Plan, 'id'> & { id?: unknown };
  return planContentSha256(rest);
}

/** True when the plan's id still matches its content (nothing was edited after planning). */
export function verifyPlanId(plan: Plan): boolean {
  const { id, ...rest } = plan;
  return typeof id === 'string' && id === planId(rest);
}
