import type { Diagnostic } from '../../errors.js';
import { didYouMean } from '../did-you-mean.js';
import type { RawItemAt } from '../model.js';
import { diagnostic } from '../places.js';
import { everySelection, type Rule } from './context.js';

/** `group:<name>` must name a group defined in some file. */
export const unknownGroup: Rule = {
  name: 'unknown-group',
  check({ merged, locate }) {
    const names = [...merged.groups.keys()];
    const references: RawItemAt[] = [
      ...[...merged.groups.values()].flatMap((g) => g.items),
      ...everySelection(merged).flatMap(({ selection }) => [...selection.include, ...selection.exclude]),
    ];
    const out: Diagnostic[] = [];
    for (const { item, place } of references) {
      if (item.type !== 'group' || merged.groups.has(item.name)) continue;
      out.push(
        diagnostic(locate, {
          rule: 'unknown-group',
          message: `group \`${item.name}\` is not defined`,
          place,
          hint:
            didYouMean(item.name, names) ??
            (names.length > 0 ? `defined groups: ${names.sort().join(', ')}` : 'define it under `groups:`'),
        }),
      );
    }
    return out;
  },
};

/** A group may reference other groups, but never (transitively) itself. */
export const groupCycle: Rule = {
  name: 'group-cycle',
  check({ merged, locate }) {
    const out: Diagnostic[] = [];
    for (const group of merged.groups.values()) {
      const chain = findCycle(group.name, group.name, merged.groups, new Set(), []);
      if (!chain) continue;
      out.push(
        diagnostic(locate, {
          rule: 'group-cycle',
          message: `group \`${group.name}\` includes itself: ${[group.name, ...chain].join(' → ')}`,
          place: group.place,
          key: true,
          hint: 'list sites in the group directly instead of referencing a group that references it back',
        }),
      );
    }
    return out;
  },
};

function findCycle(
  target: string,
  current: string,
  groups: ReadonlyMap<string, { items: RawItemAt[] }>,
  visited: Set<string>,
  chain: string[],
): string[] | undefined {
  for (const { item } of groups.get(current)?.items ?? []) {
    if (item.type !== 'group') continue;
    if (item.name === target) return [...chain, target];
    if (visited.has(item.name)) continue;
    visited.add(item.name);
    const found = findCycle(target, item.name, groups, visited, [...chain, item.name]);
    if (found) return found;
  }
  return undefined;
}

/** A defined group that nothing references is probably a leftover or a typo elsewhere. */
export const unusedGroup: Rule = {
  name: 'unused-group',
  check({ merged, locate }) {
    const used = new Set<string>();
    const references = [
      ...[...merged.groups.values()].flatMap((g) => g.items),
      ...everySelection(merged).flatMap(({ selection }) => [...selection.include, ...selection.exclude]),
    ];
    for (const { item } of references) if (item.type === 'group') used.add(item.name);
    return [...merged.groups.values()]
      .filter((g) => !used.has(g.name))
      .map((g) =>
        diagnostic(locate, {
          rule: 'unused-group',
          severity: 'warning',
          message: `group \`${g.name}\` is defined but never used`,
          place: g.place,
          key: true,
          hint: 'reference it as `group:' + g.name + '` or remove it',
        }),
      );
  },
};
