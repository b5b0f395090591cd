/**
 * The saved plan format: JSON with a two-space indent and a fixed, readable order of the plan's
 * own keys (identity and summary first, then actions, fingerprints, notes; unknown keys sorted
 * after the known ones), a newline at the end, and each action and each note one compact line
 * with its keys sorted: the order the planner builds them in (canonical JSON's), so a fleet's
 * records are written as they are, without a reordered copy. Key order never affects the id,
 * which is computed over the canonical form of the parsed plan.
 * `planJsonChunks` yields the same bytes piece by piece (a batch of actions at a time), so a
 * fleet-sized plan can be written without one giant string. Actions are written by the action
 * writer the plan id uses (src/canonical/), the rest by JSON.stringify.
 * With `groupBy`, `group_by` and `groups` (plan-groups.ts) follow the summary: a presentation of
 * the actions, which stay in their canonical order; neither is part of the id.
 */
import { actionJsonWriter } from '../canonical/index.js';
import type { Plan } from '../types.js';
import { type GroupBy, planGroups } from './plan-groups.js';

export interface PlanJsonOptions {
  /** Adds the `groups` section, by item or by site; absent: the plan alone. */
  groupBy?: GroupBy | undefined;
}

const ORDER: Record<string, readonly string[]> = {
  plan: [
    'format_version',
    'id',
    'created_at',
    'expires_at',
    'dashboard',
    'desired_digest',
    'needs_approval',
    'summary',
    'selectors',
    'security',
    'group_by',
    'groups',
    'actions',
    'fingerprints',
    'notes',
  ],
  summary: ['ignore', 'unignore', 'update', 'sites', 'high_risk'],
};

/** The plan's record lists: one compact record per line. */
const ONE_PER_LINE = new Set(['actions', 'notes', 'groups']);

function orderKeys(keys: readonly string[], preferred: readonly string[]): string[] {
  const known = preferred.filter((key) => keys.includes(key));
  return [...known, ...keys.filter((key) => !preferred.includes(key)).sort()];
}

/** A copy with `preferred` keys first, the rest sorted; nested objects sorted. */
function ordered(value: unknown, preferred: readonly string[] = []): unknown {
  if (Array.isArray(value)) return value.map((entry) => ordered(entry));
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = Object.create(null); // "__proto__" stays a member
  for (const key of orderKeys(Object.keys(record), preferred)) out[key] = ordered(record[key]);
  return out;
}

const indent = (json: string, by: string): string => json.replace(/\n/g, `\n${by}`);

/**
 * Whether every record in `value` already lists its keys sorted. The last sorted key list is
 * remembered: records of one shape follow each other by the thousand.
 */
function keysSorted(): (value: unknown) => boolean {
  let known: string[] = [];
  const check = (value: unknown): boolean => {
    if (value === null || typeof value !== 'object') return true;
    if (Array.isArray(value)) return value.every(check);
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (!sameKeys(keys, known)) {
      for (let i = 1; i < keys.length; i++)
        if (!((keys[i - 1] as string) < (keys[i] as string))) return false;
      known = keys;
    }
    return keys.every((key) => check(record[key]));
  };
  return check;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const BATCH = 1024;

/** What stands between two records in a batch's JSON: `}` `,` `{"` (records with a key). */
const RECORD_BREAK = '},{"';

/**
 * The elements of a top-level array, one compact element per line (a fleet's plan holds tens
 * of thousands: one line each keeps the file small and line diffs readable), comma-separated.
 * A batch is written by one JSON.stringify and broken into lines at its record breaks when it
 * holds exactly one per boundary: each boundary between records with a key makes one, so a
 * count that matches leaves none inside a string (`"…},{"` can end a value) or a nested list.
 * Otherwise each record is written alone.
 */
function* elementChunks(elements: readonly unknown[]): Generator<string> {
  const sorted = keysSorted();
  for (let start = 0; start < elements.length; start += BATCH) {
    const batch = elements
      .slice(start, start + BATCH)
      .map((element) => (sorted(element) ? element : ordered(element)));
    const parts = JSON.stringify(batch).slice(1, -1).split(RECORD_BREAK);
    const lines =
      parts.length === batch.length && batch.every(hasKeys)
        ? parts.join('},\n    {"')
        : batch.map((element) => JSON.stringify(element)).join(',\n    ');
    yield `${start > 0 ? ',\n' : ''}    ${lines}`;
  }
}

/**
 * The plan's actions, one per line, each written by the action writer (the same text as the
 * plan id hashes: canonical JSON is compact with its keys sorted, as these lines are); a record
 * the writer does not take is written alone with its keys sorted.
 */
function* actionChunks(actions: readonly unknown[]): Generator<string> {
  const write = actionJsonWriter();
  for (let start = 0; start < actions.length; start += BATCH) {
    const lines: string[] = [];
    const end = Math.min(start + BATCH, actions.length);
    // A hole is written as null, as JSON.stringify writes one in an array.
    for (let i = start; i < end; i++)
      lines.push(write(actions[i]) ?? JSON.stringify(ordered(actions[i])) ?? 'null');
    yield `${start > 0 ? ',\n' : ''}    ${lines.join(',\n    ')}`;
  }
}

/** Group entries, one per line, keys in the order plan-groups.ts builds them (not hashed, not sorted). */
function* groupChunks(groups: readonly unknown[]): Generator<string> {
  for (let start = 0; start < groups.length; start += BATCH) {
    const lines = groups.slice(start, start + BATCH).map((group) => JSON.stringify(group));
    yield `${start > 0 ? ',\n' : ''}    ${lines.join(',\n    ')}`;
  }
}

function hasKeys(element: unknown): boolean {
  if (element === null || typeof element !== 'object' || Array.isArray(element)) return false;
  for (const _ in element) return true;
  return false;
}

export function* planJsonChunks(plan: Plan, options: PlanJsonOptions = {}): Generator<string> {
  const { groupBy } = options;
  const record: Record<string, unknown> =
    groupBy === undefined
      ? (plan as unknown as Record<string, unknown>)
      : { ...plan, group_by: groupBy, groups: planGroups(plan.actions, groupBy) };
  const keys = orderKeys(Object.keys(record), ORDER.plan!).filter((key) => record[key] !== undefined);
  yield '{\n';
  for (const [position, key] of keys.entries()) {
    const value = record[key];
    const comma = position < keys.length - 1 ? ',' : '';
    if (Array.isArray(value) && value.length > 0 && ONE_PER_LINE.has(key)) {
      yield `  ${JSON.stringify(key)}: [\n`;
      yield* key === 'actions'
        ? actionChunks(value)
        : key === 'groups'
          ? groupChunks(value)
          : elementChunks(value);
      yield `\n  ]${comma}\n`;
    } else {
      yield `  ${JSON.stringify(key)}: ${indent(JSON.stringify(ordered(value, ORDER[key]), null, 2), '  ')}${comma}\n`;
    }
  }
  yield '}\n';
}

export function renderPlanJson(plan: Plan, options: PlanJsonOptions = {}): string {
  return [...planJsonChunks(plan, options)].join('');
}
