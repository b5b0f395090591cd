/**
 * JSON shapes for the differential test: types and keys, never values. An array's shape is the
 * union of its items' shapes; an empty array matches any array, as a listing with nothing in it
 * says nothing about its items.
 */
export type Shape =
  | { t: 'null' | 'boolean' | 'integer' | 'number' | 'string' }
  | { t: 'array'; items: Shape[] }
  | { t: 'object'; keys: Record<string, Shape> };

export function shapeOf(value: unknown): Shape {
  if (value === null || value === undefined) return { t: 'null' };
  if (typeof value === 'boolean') return { t: 'boolean' };
  if (typeof value === 'number') return { t: Number.isInteger(value) ? 'integer' : 'number' };
  if (typeof value === 'string') return { t: 'string' };
  if (Array.isArray(value)) return { t: 'array', items: union(value.map(shapeOf)) };
  const keys: Record<string, Shape> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) keys[key] = shapeOf(item);
  return { t: 'object', keys };
}

/** One shape per kind (t): objects merged key by key (a key some items lack is still listed). */
function union(shapes: Shape[]): Shape[] {
  const byKind = new Map<string, Shape>();
  for (const shape of shapes) {
    const seen = byKind.get(shape.t);
    byKind.set(shape.t, seen ? merge(seen, shape) : shape);
  }
  return [...byKind.values()];
}

function merge(a: Shape, b: Shape): Shape {
  if (a.t === 'object' && b.t === 'object') {
    const keys: Record<string, Shape> = { ...a.keys };
    for (const [key, shape] of Object.entries(b.keys))
      keys[key] = keys[key] ? merge(keys[key], shape) : shape;
    return { t: 'object', keys };
  }
  if (a.t === 'array' && b.t === 'array') return { t: 'array', items: union([...a.items, ...b.items]) };
  return a;
}

/** The differences between two shapes, one line each, by JSON path (`$.data[].id`). */
export function shapeDiff(real: Shape, sandbox: Shape, path = '$'): string[] {
  if (real.t !== sandbox.t) return [`${path}: real ${real.t}, sandbox ${sandbox.t}`];
  if (real.t === 'array' && sandbox.t === 'array') {
    if (real.items.length === 0 || sandbox.items.length === 0) return [];
    const kinds = (items: Shape[]) =>
      items
        .map((s) => s.t)
        .sort()
        .join('|');
    if (kinds(real.items) !== kinds(sandbox.items))
      return [`${path}[]: real ${kinds(real.items)}, sandbox ${kinds(sandbox.items)}`];
    return real.items.flatMap((item) =>
      shapeDiff(item, sandbox.items.find((s) => s.t === item.t) as Shape, `${path}[]`),
    );
  }
  if (real.t === 'object' && sandbox.t === 'object') {
    const out: string[] = [];
    for (const key of Object.keys(real.keys).sort()) {
      const other = sandbox.keys[key];
      if (!other) out.push(`${path}.${key}: only on the real dashboard`);
      else out.push(...shapeDiff(real.keys[key] as Shape, other, `${path}.${key}`));
    }
    for (const key of Object.keys(sandbox.keys).sort())
      if (!real.keys[key]) out.push(`${path}.${key}: only in the sandbox`);
    return out;
  }
  return [];
}
