import {
  type Alias,
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  type ToJSOptions,
  visit,
  type YAMLMap,
} from 'yaml';
import type { Diagnostic } from '../errors.js';
import { LIMITS } from './limits.js';
import type { Position, Segment } from './model.js';

/** Walks over a composed YAML document: structural checks and JSON path → position lookup. */

/**
 * Keys must be plain strings; nesting is bounded. Iterative, so hostile depth cannot overflow the
 * stack. Visits nodes in document order (children are pushed last first), so the too-deep error
 * points at the first collection in the file that exceeds the limit.
 */
export function checkKeysAndDepth(
  root: Node,
  position: (offset: number) => Position,
  file: string,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const stack: Array<{ node: unknown; depth: number }> = [{ node: root, depth: 1 }];
  while (stack.length > 0 && out.length < 50) {
    const { node, depth } = stack.pop()!;
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth > LIMITS.maxDepth) {
      out.push({
        severity: 'error',
        rule: 'too-deep',
        message: `collections nest more than ${LIMITS.maxDepth} levels deep`,
        file,
        ...position(node.range?.[0] ?? 0),
      });
      break;
    }
    for (const item of node.items) {
      if (!isPair(item)) continue;
      const key = item.key;
      if (!(isScalar(key) && typeof key.value === 'string')) {
        const offset = isNodeWithRange(key) ? key.range[0] : (node.range?.[0] ?? 0);
        out.push({
          severity: 'error',
          rule: 'non-string-key',
          message: `keys must be plain strings, found ${describeKey(key)}`,
          file,
          ...position(offset),
          hint: 'write the key as text (quote it if it looks like a number, e.g. "1")',
        });
      }
    }
    for (let i = node.items.length - 1; i >= 0; i--) {
      const item: unknown = node.items[i];
      stack.push({ node: isPair(item) ? item.value : item, depth: depth + 1 });
    }
  }
  return out;
}

function isNodeWithRange(value: unknown): value is Node & { range: [number, number, number] } {
  return typeof value === 'object' && value !== null && Array.isArray((value as { range?: unknown }).range);
}

function describeKey(key: unknown): string {
  if (isScalar(key))
    return key.value === null ? 'an empty key' : `the ${typeof key.value} ${String(key.value)}`;
  if (isAlias(key)) return 'an alias';
  if (isMap(key)) return 'a mapping';
  if (isSeq(key)) return 'a sequence';
  return 'a complex key';
}

/**
 * The alias at which `doc.toJS(options)` throws (alias limit, unresolved alias): the library's
 * error says neither which alias nor where. Converts again with each alias's toJSON wrapped to
 * note the innermost alias whose conversion threw; the same library code runs in the same order,
 * so it stops at the same alias. Only for a document that failed to convert (the wrappers stay on
 * its nodes), so valid files never pay for it; the second conversion is bounded like the first.
 */
export function failingAlias(doc: Document, options: ToJSOptions): Alias | undefined {
  let failed: Alias | undefined;
  visit(doc, {
    Alias: (_key, alias) => {
      const toJSON = alias.toJSON;
      alias.toJSON = (...args: Parameters<Alias['toJSON']>) => {
        try {
          return toJSON.apply(alias, args);
        } catch (error) {
          failed ??= alias;
          throw error;
        }
      };
    },
  });
  try {
    doc.toJS(options);
  } catch {
    // Expected: the error was reported already; only its place was missing.
  }
  return failed;
}

/**
 * A mapping's pairs by key text, the first of each key, built once per mapping: locating every
 * group of a mapping of 20,000 groups scanned it per lookup (quadratic: 77 s).
 */
const pairIndexes = new WeakMap<YAMLMap, Map<string, Pair>>();

function pairsByKey(map: YAMLMap): Map<string, Pair> {
  let index = pairIndexes.get(map);
  if (index === undefined) {
    index = new Map();
    for (const pair of map.items) {
      if (!isScalar(pair.key)) continue;
      const key = String(pair.key.value);
      if (!index.has(key)) index.set(key, pair);
    }
    pairIndexes.set(map, index);
  }
  return index;
}

export function locate(
  doc: Document,
  position: (offset: number) => Position,
  path: readonly Segment[],
  wantKey: boolean,
): Position {
  let node: unknown = doc.contents;
  let offset = isNodeWithRange(node) ? node.range[0] : 0;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i];
    let next: unknown;
    let keyOffset: number | undefined;
    if (isMap(node)) {
      const pair = pairsByKey(node).get(String(segment));
      if (pair) {
        next = pair.value;
        if (isNodeWithRange(pair.key)) keyOffset = pair.key.range[0];
      }
    } else if (isSeq(node) && typeof segment === 'number') {
      next = node.items[segment];
    }
    if (i === path.length - 1 && wantKey && keyOffset !== undefined) return position(keyOffset);
    if (isNodeWithRange(next)) offset = next.range[0];
    else if (keyOffset !== undefined) offset = keyOffset;
    else break;
    if (isAlias(next)) break;
    node = next;
  }
  return position(offset);
}
