/**
 * The plan id: sha256 of the canonical JSON (src/canonical/) of every field of the plan but `id`
 * and the presentation a JSON plan printed with `--group-by` carries (`group_by`, `groups`,
 * derived from the actions): a plan saved with or without it has one id.
 *
 * A fleet's plan is tens of thousands of actions, and this hash is most of what planning costs
 * after the site pass, so the two members that hold a plan's size are written by hand:
 *   - an action with exactly the planner's fields by the action writer (action-json.ts);
 *   - `fingerprints`, a plain record of strings, key by key;
 *   - `security`, its moves with their site ids, by the security section writer (security-json.ts).
 * Anything else (an edited plan file, an unexpected field, a value of another type) is written
 * by the general canonical writer, so the bytes hashed are always exactly the canonical JSON;
 * tests compare the two writers on hostile plans.
 */
import { createHash, type Hash } from 'node:crypto';
import {
  actionJsonWriter,
  canonicalJson,
  canonicalMemberJson,
  canonicalSha256,
  isPlainRecord,
  plannedActionJsonWriter,
  securitySectionJson,
} from '../canonical/index.js';
import type { Plan } from '../types.js';

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

function writeActions(actions: readonly unknown[], write: (text: string) => void, planned: boolean): void {
  const plannedActionJson = planned ? plannedActionJsonWriter() : actionJsonWriter();
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
function writeStringRecord(record: Record<string, string>, write: (text: string) => void, planned: boolean) {
  let first = true;
  write('{');
  // Default sort compares UTF-16 code units: the canonical key order ("10" before "9").
  for (const key of Object.keys(record).sort()) {
    const value = record[key] as string;
    // A planner's record: keys are site ids (a number's text), values `sha256:` and hex.
    const json =
      planned || (PLAIN.test(key) && PLAIN.test(value))
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
function planContentSha256(rest: Record<string, unknown>, planned: boolean): string {
  const { actions, fingerprints } = rest;
  const fast =
    typeof rest.toJSON !== 'function' &&
    Array.isArray(actions) &&
    typeof (actions as { toJSON?: unknown }).toJSON !== 'function' &&
    (fingerprints === undefined || planned || isStringRecord(fingerprints));
  if (!fast) return canonicalSha256(rest);
  const hash = createHash('sha256');
  const out = chunkedHash(hash);
  let first = true;
  out.write('{');
  for (const key of Object.keys(rest).sort()) {
    const value = rest[key];
    const head = `${first ? '' : ','}${JSON.stringify(key)}:`;
    if (key === 'actions') {
      out.write(head);
      writeActions(value as unknown[], out.write, planned);
    } else if (key === 'fingerprints' && value !== undefined) {
      out.write(head);
      writeStringRecord(value as Record<string, string>, out.write, planned);
    } else {
      const json =
        (key === 'security' ? securitySectionJson(value) : undefined) ?? canonicalMemberJson(value);
      if (json === undefined) continue;
      out.write(head + json);
    }
    first = false;
  }
  out.write('}');
  out.end();
  return hash.digest('hex');
}

/** The plan id: sha256 of the canonical JSON of every field but `id`, `group_by` and `groups`. */
export function planId(planWithoutId: Omit<Plan, 'id'>): string {
  const {
    id: _id,
    group_by: _groupBy,
    groups: _groups,
    ...rest
  } = planWithoutId as Omit<Plan, 'id'> & { id?: unknown; group_by?: unknown; groups?: unknown };
  return planContentSha256(rest, false);
}

/**
 * planId of a plan createPlan has just built, before anyone else holds it: its actions are the
 * planner's records (see plannedActionJsonWriter) and its fingerprints are keyed by site id, so
 * neither is checked for a shape it cannot have. Same bytes hashed as planId; tests compare.
 */
export function plannedPlanId(planWithoutId: Omit<Plan, 'id'>): string {
  return planContentSha256(planWithoutId as unknown as Record<string, unknown>, true);
}

/** True when the plan's id still matches its content (nothing was edited after planning). */
export function verifyPlanId(plan: Plan): boolean {
  const { id, ...rest } = plan;
  return typeof id === 'string' && id === planId(rest);
}
