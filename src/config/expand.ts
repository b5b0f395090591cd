import type { SiteMatcher, SiteSelection } from '../types.js';
import { matcherKey } from './matchers.js';
import type { RawGroup, RawItemAt, RawSelection } from './model.js';
import type { Locate } from './places.js';

/** A matcher after group expansion, with the item it was written as (for diagnostics). */
export interface ExpandedItem {
  matcher: SiteMatcher;
  from: RawItemAt;
}

/**
 * Replaces `group:<name>` items by the group's items, depth first in item order. Unknown groups
 * and a group already on the way down (a cycle) expand to nothing here; the `unknown-group` and
 * `group-cycle` rules report them. Iterative, with one set of the groups on the way down, so a
 * chain of 100,000 groups neither overflows the stack nor copies the set at each level.
 */
export function expandItems(
  items: readonly RawItemAt[],
  groups: ReadonlyMap<string, RawGroup>,
): ExpandedItem[] {
  const out: ExpandedItem[] = [];
  const path = new Set<string>();
  const frames: Array<{ name: string; items: readonly RawItemAt[]; next: number }> = [];
  const enter = (name: string) => {
    const group = groups.get(name);
    if (!group || path.has(name)) return;
    path.add(name);
    frames.push({ name, items: group.items, next: 0 });
  };
  for (const at of items) {
    if (at.item.type !== 'group') {
      out.push({ matcher: at.item, from: at });
      continue;
    }
    enter(at.item.name);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const inner = frame.items[frame.next++];
      if (inner === undefined) {
        frames.pop();
        path.delete(frame.name);
      } else if (inner.item.type === 'group') enter(inner.item.name);
      else out.push({ matcher: inner.item, from: at });
    }
  }
  return out;
}

/**
 * The normalised selection: groups expanded, duplicate matchers dropped (first one kept). With
 * `locate`, a tag or client matcher carries where it was written (the dashboard may not have it).
 */
export function expandSelection(
  raw: RawSelection,
  groups: ReadonlyMap<string, RawGroup>,
  locate?: Locate,
): SiteSelection {
  const matchers = (items: readonly RawItemAt[]) =>
    unique(
      expandItems(items, groups).map(({ matcher, from }) =>
        locate && (matcher.type === 'tag' || matcher.type === 'client')
          ? { ...matcher, source: locate(from.place) }
          : matcher,
      ),
    );
  return { include: matchers(raw.include), exclude: matchers(raw.exclude) };
}

function unique(matchers: SiteMatcher[]): SiteMatcher[] {
  const seen = new Set<string>();
  return matchers.filter((m) => {
    const key = matcherKey(m);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
