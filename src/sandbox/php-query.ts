/**
 * Parses a query string the way PHP builds `$_GET`: `input[types][]=plugins&input[page]=2`
 * → `{input: {types: ['plugins'], page: '2'}}`. Values stay strings. Objects whose keys are
 * 0..n-1 become arrays (WordPress treats those as lists). Deeper than 5 levels is cut, as PHP
 * limits nesting.
 */
export function parsePhpQuery(raw: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!match) {
      root[key] = value;
      continue;
    }
    const path = [
      match[1] as string,
      ...[...(match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] ?? ''),
    ];
    assign(root, path.slice(0, 6), value);
  }
  return listify(root) as Record<string, unknown>;
}

function assign(target: Record<string, unknown>, path: string[], value: string): void {
  let node = target;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i] === '' ? String(Object.keys(node).length) : (path[i] as string);
    const next = node[key];
    if (typeof next !== 'object' || next === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  const last = path.at(-1) as string;
  node[last === '' ? String(Object.keys(node).length) : last] = value;
}

function listify(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, listify(v)] as const);
  const sequential = entries.length > 0 && entries.every(([k], index) => k === String(index));
  return sequential ? entries.map(([, v]) => v) : Object.fromEntries(entries);
}
