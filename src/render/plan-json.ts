/**
 * The saved plan format: pretty JSON (two-space indent) with a fixed, readable key order
 * (identity and summary first, then actions, fingerprints, notes; unknown keys sorted after the
 * known ones) and a newline at the end. Key order never affects the id, which is computed over
 * the canonical key-sorted form. `planJsonChunks` yields the same bytes piece by piece (one
 * action at a time), so a fleet-sized plan can be written without one giant string.
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
  notes: ['kind', 'site_id', 'site_url', 'item', 'message'],
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
  const out: Record<string, unknown> = {};
  for (const key of orderKeys(Object.keys(record), preferred)) out[key] = ordered(record[key]);
  return out;
}

const indent = (json: string, by: string): string => json.replace(/\n/g, `\n${by}`);

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
      for (const [index, element] of value.entries()) {
        const separator = index < value.length - 1 ? ',' : '';
        yield `    ${indent(JSON.stringify(ordered(element, elementOrder), null, 2), '    ')}${separator}\n`;
      }
      yield `  ]${comma}\n`;
    } else {
      yield `  ${JSON.stringify(key)}: ${indent(JSON.stringify(ordered(value, elementOrder), null, 2), '  ')}${comma}\n`;
    }
  }
  yield '}\n';
}

export function renderPlanJson(plan: Plan): string {
  return [...planJsonChunks(plan)].join('');
}
