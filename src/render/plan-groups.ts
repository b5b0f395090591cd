/**
 * The `groups` section of a JSON plan printed or saved with `--group-by`: the plan's actions
 * presented by item (one entry per distinct change, in the roll-up's order) or by site (one entry
 * per site, ascending), each pointing into `actions` by index. The actions keep their canonical
 * order, which the plan id hashes; the section is derived from them alone, is not part of the id,
 * and is never acted on: a reader checks it equals `planGroups` of the actions and then drops it.
 */
import type { Action } from '../types.js';
import { type ChangeFields, distinctChanges } from './rollup.js';

export type GroupBy = 'site' | 'item';

/** One distinct change: what it does, on how many sites, and which actions (indices into `actions`). */
export interface ItemGroup extends ChangeFields {
  sites: number;
  action_indices: number[];
}

/** One site and its actions (indices into `actions`, ascending). */
export interface SiteGroup {
  site_id: number;
  site_url: string;
  action_indices: number[];
}

export type PlanGroup = ItemGroup | SiteGroup;

/**
 * The groups of `actions`. Keys are listed in reading order (what, then how many, then the
 * index list, which is the long part of a line), not sorted: the section is not hashed.
 */
export function planGroups(actions: readonly Action[], by: GroupBy): PlanGroup[] {
  return by === 'site' ? siteGroups(actions) : itemGroups(actions);
}

function itemGroups(actions: readonly Action[]): ItemGroup[] {
  return distinctChanges(actions).map((change) => ({
    op: change.op,
    kind: change.kind,
    slug: change.slug,
    name: change.name,
    ...(change.from === undefined ? {} : { from: change.from }),
    ...(change.to === undefined ? {} : { to: change.to }),
    risk: change.risk,
    ...(change.wave === undefined ? {} : { wave: change.wave }),
    sites: change.siteIds.length,
    action_indices: change.actionIndices,
  }));
}

function siteGroups(actions: readonly Action[]): SiteGroup[] {
  const bySite = new Map<number, SiteGroup>();
  actions.forEach((action, index) => {
    const group = bySite.get(action.site_id);
    if (group) group.action_indices.push(index);
    else
      bySite.set(action.site_id, {
        site_id: action.site_id,
        site_url: action.site_url,
        action_indices: [index],
      });
  });
  return [...bySite.values()].sort((a, b) => a.site_id - b.site_id);
}
