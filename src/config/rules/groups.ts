import type { Diagnostic } from '../../errors.js';
import { didYouMean } from '../did-you-mean.js';
import { LIMITS } from '../limits.js';
import type { RawItemAt } from '../model.js';
import { diagnostic } from '../places.js';
import { everySelection, type Rule } from './context.js';
import { cycleThrough, cyclicComponents, expansionSizes } from './group-graph.js';

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

/** Cycles whose chain is spelled out; a larger cycle names its size (messages stay short). */
const SHOWN_CHAIN = 10;

/**
 * A group may reference other groups, but never (transitively) itself. Linear in the groups
 * (group-graph.ts): each group on a cycle is reported with a shortest chain back to itself.
 * The rules after this one expand groups: they do not run when it finds a cycle.
 */
export const groupCycle: Rule = {
  name: 'group-cycle',
  stopsOnError: true,
  check({ merged, locate }) {
    const out: Diagnostic[] = [];
    const cyclic = cyclicComponents(merged.groups);
    for (const group of merged.groups.values()) {
      const component = cyclic.get(group.name);
      if (!component) continue;
      const chain =
        component.size <= SHOWN_CHAIN
          ? [group.name, ...cycleThrough(merged.groups, group.name, component)].join(' → ')
          : `it is one of ${component.size} groups that reference each other in a cycle`;
      out.push(
        diagnostic(locate, {
          rule: 'group-cycle',
          message: `group \`${group.name}\` includes itself: ${chain}`,
          place: group.place,
          key: true,
          hint: 'list sites in the group directly instead of referencing a group that references it back',
        }),
      );
    }
    return out;
  },
};

/**
 * A group, or all selections together, expanding to more than LIMITS.maxExpandedItems sites
 * and globs: groups that each list another twice double at every level (a "billion laughs" of
 * groups), and each selection naming a group holds all of its items.
 * The rules after this one expand groups: they do not run when it finds one.
 */
export const groupTooLarge: Rule = {
  name: 'group-too-large',
  stopsOnError: true,
  check({ merged, locate }) {
    const limit = LIMITS.maxExpandedItems;
    const sizes = expansionSizes(merged.groups, limit);
    const out: Diagnostic[] = [];
    const hint =
      'list the sites once; a group that lists another group many times repeats its sites each time';
    for (const group of merged.groups.values()) {
      if ((sizes.get(group.name) ?? 0) <= limit) continue;
      const message = `group \`${group.name}\` expands to more than ${limit} sites and globs`;
      out.push(diagnostic(locate, { rule: 'group-too-large', message, place: group.place, key: true, hint }));
    }
    // Every selection is expanded (the desired state holds them so): the limit is on their sum.
    let total = 0;
    for (const { selection, owner } of everySelection(merged)) {
      for (const { item } of [...selection.include, ...selection.exclude])
        total += item.type === 'group' ? (sizes.get(item.name) ?? 0) : 1;
      if (total <= limit) continue;
      const message = `the selections up to ${owner} expand to more than ${limit} sites and globs together`;
      out.push(diagnostic(locate, { rule: 'group-too-large', message, place: selection.place, hint }));
      break;
    }
    return out;
  },
};

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
