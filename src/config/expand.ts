import type { SiteMatcher, SiteSelection } from '../types.js';
import { matcherKey } from './matchers.js';
import type { RawGroup, RawItemAt, RawSelection } from './model.js';

/** A matcher after group expansion, with the item it was written as (for diagnostics). */
export interface ExpandedItem {
  matcher: SiteMatcher;
  from: RawItemAt;
}

/**
 * Replaces `group:<name>` items by the group's items, recursively. Unknown groups and cycles
 * expand to nothing here; the `unknown-group` and `group-cycle` rules report them.
 */
export function expandItems(
  items: readonly RawItemAt[],
  groups: ReadonlyMap<string, RawGroup>,
  visiting: ReadonlySet<string> = new Set(),
): ExpandedItem[] {
  const out: ExpandedItem[] = [];
  for (const at of items) {
    const { item } = at;
    if (item.type !== 'group') {
      out.push({ matcher: item, from: at });
      continue;
    }
    const group = groups.get(item.name);
    if (!group || visiting.has(item.name)) continue;
    const inner = expandItems(group.items, groups, new Set([...visiting, item.name]));
    // A loop, not push(...): a group may hold more IDs than a call can take as arguments.
    for (const e of inner) out.push({ matcher: e.matcher, from: at });
  }
  return out;
}

/** The normalised selection: groups expanded, duplicate matchers dropped (first one kept). */
export function expandSelection(raw: RawSelection, groups: ReadonlyMap<string, RawGroup>): SiteSelection {
  return {
    include: unique(expandItems(raw.include, groups).map((e) => e.matcher)),
    exclude: unique(expandItems(raw.exclude, groups).map((e) => e.matcher)),
  };
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
