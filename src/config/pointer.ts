import type { Segment } from './model.js';

/** RFC 6901 JSON pointer of a path, e.g. `/updates/0/max`. */
export function jsonPointer(path: readonly Segment[]): string {
  return path.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
