import { isMap, isPair, isScalar, isSeq, type Node, YAMLParseError } from 'yaml';

/**
 * A DUPLICATE_KEY error at every key that repeats an earlier scalar key of its mapping, as the
 * yaml library reports them with `uniqueKeys: true` (equal scalar values), found with one set per
 * mapping: linear in the document, where the library's check is quadratic in a mapping's size.
 * Iterative, so nesting cannot overflow the stack (parseBounded has bounded it already).
 */
export function duplicateKeyErrors(root: Node | null): YAMLParseError[] {
  const errors: YAMLParseError[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isMap(node) && !isSeq(node)) continue;
    const seen = new Set<unknown>();
    for (const item of node.items) {
      if (!isPair(item)) {
        stack.push(item);
        continue;
      }
      const key = item.key;
      if (isScalar(key)) {
        if (seen.has(key.value)) {
          const offset = key.range?.[0] ?? node.range?.[0] ?? 0;
          errors.push(new YAMLParseError([offset, offset + 1], 'DUPLICATE_KEY', 'Map keys must be unique'));
        }
        seen.add(key.value);
      } else stack.push(key);
      stack.push(item.value);
    }
  }
  return errors.sort((a, b) => a.pos[0] - b.pos[0]);
}
