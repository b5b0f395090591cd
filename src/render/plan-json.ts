/**
 * The saved plan format: JSON with a two-space indent, except that each action and each note is
 * one compact line, with a fixed, readable key order (identity and summary first, then actions,
 * fingerprints, notes; unknown keys sorted after the known ones) and a newline at the end. Key
 * order never affects the id, which is computed over the canonical key-sorted form.
 * `planJsonChunks` yields the same bytes piece by piece (a batch of actions at a time), so a
 * fleet-sized plan can be written without one giant string.
 */
import type { Plan } from '../types.js';

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
    'actions',
    'fingerprints',
    'notes',
  ],
  actions: ['op', 'site_id', 'site_url', 'kind', 'slug', 'name', 'from', 'to', 'risk', 'wave', 'reason'],
  notes: ['kind', 'item', 'message', 'site_ids'],
  summary: ['ignore', 'unignore', 'update', 'sites', 'high_risk'],
};

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
 * A writer for the elements of one array in `preferred` key order. JSON.stringify with a key
 * list as the replacer writes members in that list's order natively, so the planner's records
 * (built in canonical, sorted order) need no reordered copy. The list also filters, so it is
 * used only for records whose keys it all holds (nested records included); a record with other
 * keys is copied by `ordered`, which keeps them.
 */
function elementWriter(preferred: readonly string[]): (element: unknown) => string {
  const known = new Set(preferred);
  const list = [...preferred];
  // The last key list that fitted: records of one shape follow each other by the thousand.
  let fitted: string[] = [];
  const fits = (value: unknown): boolean => {
    if (value === null || typeof value !== 'object') return true;
    if (Array.isArray(value)) return value.every(fits);
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (!sameKeys(keys, fitted)) {
      if (!keys.every((key) => known.has(key))) return false;
      fitted = keys;
    }
    return keys.every((key) => fits(record[key]));
  };
  return (element) =>
    fits(element) ? JSON.stringify(element, list) : JSON.stringify(ordered(element, preferred));
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const BATCH = 1024;

/**
 * The elements of a top-level array, one compact element per line (a fleet's plan holds tens
 * of thousands: one line each keeps the file small and line diffs readable), comma-separated.
 */
function* elementChunks(elements: readonly unknown[], order: readonly string[]): Generator<string> {
  const write = elementWriter(order);
  for (let start = 0; start < elements.length; start += BATCH) {
    const lines = elements.slice(start, start + BATCH).map((element) => `    ${write(element)}`);
    yield `${start > 0 ? ',\n' : ''}${lines.join(',\n')}`;
  }
}

export function* planJsonChunks(plan: Plan): Generator<string> {
  const record = plan as unknown as Record<string, unknown>;
  const keys = orderKeys(Object.keys(record), ORDER.plan!).filter((key) => record[key] !== undefined);
  yield '{\n';
  for (const [position, key] of keys.entries()) {
    const value = record[key];
    const comma = position < keys.length - 1 ? ',' : '';
    const elementOrder = ORDER[key];
    if (Array.isArray(value) && value.length > 0 && elementOrder) {
      yield `  ${JSON.stringify(key)}: [\n`;
      yield* elementChunks(value, elementOrder);
      yield `\n  ]${comma}\n`;
    } else {
      yield `  ${JSON.stringify(key)}: ${indent(JSON.stringify(ordered(value, elementOrder), null, 2), '  ')}${comma}\n`;
    }
  }
  yield '}\n';
}

export function renderPlanJson(plan: Plan): string {
  return [...planJsonChunks(plan)].join('');
}
