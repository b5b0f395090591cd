/**
 * The distinct changes of a plan: actions that do the same thing (operation, item, version move,
 * risk, wave) on different sites, counted once with the number of sites and the first few. A
 * fleet's plan of 50,000 actions is typically a few dozen distinct changes, which a reviewer
 * takes in at a glance; per-site detail follows them in every view.
 */
import type { Action, ActionOp, ItemKind, Risk } from '../types.js';

/** What a distinct change does: the fields its actions share, but their site and reason. */
export type ChangeFields = Pick<Action, 'op' | 'kind' | 'slug' | 'name' | 'from' | 'to' | 'risk' | 'wave'>;

export interface DistinctChange extends ChangeFields {
  /** Sites it applies to, ascending. */
  siteIds: number[];
  /** The first FIRST_SITES sites' addresses, in the order of `siteIds`. */
  firstUrls: string[];
  /** Positions of its actions in the plan's `actions`, ascending. */
  actionIndices: number[];
}

/** Sites named per distinct change; the rest are counted. */
export const FIRST_SITES = 3;

const OP_ORDER: Record<ActionOp, number> = { update: 0, ignore: 1, unignore: 2 };
const RISK_ORDER: Record<Risk, number> = { high: 0, medium: 1, low: 2 };
const KIND_ORDER: Record<ItemKind, number> = { core: 0, plugin: 1, theme: 2, translation: 3 };

/** What makes two actions the same change: operation, item, versions, risk and wave (not the site). */
function distinctChangeKey(action: Action): string {
  return [
    action.op,
    action.kind,
    action.slug,
    action.from ?? '',
    action.to ?? '',
    action.risk,
    action.wave ?? '',
  ].join('\u0000');
}

/**
 * Distinct changes, most consequential first: updates before ignore-list changes, high risk
 * first, then by number of sites (descending), then item and versions, so the order is total
 * and the same plan always rolls up the same way.
 */
export function distinctChanges(actions: readonly Action[]): DistinctChange[] {
  const groups = new Map<string, DistinctChange>();
  for (let index = 0; index < actions.length; index++) {
    const action = actions[index] as Action;
    const key = distinctChangeKey(action);
    let group = groups.get(key);
    if (!group) {
      group = {
        op: action.op,
        kind: action.kind,
        slug: action.slug,
        name: action.name,
        risk: action.risk,
        siteIds: [],
        firstUrls: [],
        actionIndices: [],
      };
      if (action.from !== undefined) group.from = action.from;
      if (action.to !== undefined) group.to = action.to;
      if (action.wave !== undefined) group.wave = action.wave;
      groups.set(key, group);
    }
    group.siteIds.push(action.site_id);
    group.actionIndices.push(index);
    if (group.firstUrls.length < FIRST_SITES) group.firstUrls.push(action.site_url);
  }
  const out = [...groups.values()];
  for (const group of out) {
    // Actions come per operation by ascending site; only an edited plan needs the sort.
    if (group.siteIds.some((id, i) => i > 0 && (group.siteIds[i - 1] as number) > id)) {
      group.siteIds.sort((a, b) => a - b);
    }
  }
  return out.sort(
    (a, b) =>
      OP_ORDER[a.op] - OP_ORDER[b.op] ||
      RISK_ORDER[a.risk] - RISK_ORDER[b.risk] ||
      b.siteIds.length - a.siteIds.length ||
      KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
      compare(a.slug, b.slug) ||
      compare(a.from ?? '', b.from ?? '') ||
      compare(a.to ?? '', b.to ?? '') ||
      compare(a.wave ?? '', b.wave ?? ''),
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
