import type { Action, IgnorableKind, ItemKind, ItemRef, Plan } from '../types.js';

/**
 * Plan actions → the fewest dashboard calls that do exactly the plan. Pure.
 *
 * Invariants:
 * - every action index appears in exactly one call;
 * - an update call's sites all have the identical planned item set, so running `items` on
 *   `siteIds` touches no item that was not planned on that site;
 * - an update call holds at most `queueThreshold` sites, so the dashboard never queues it;
 * - an update call never mixes kinds whose slugs look alike (see slugSafeSubsets);
 * - phases run in this order: ignores, unignores, then update waves in plan order.
 */

export interface IgnoreCall {
  type: 'set-ignored';
  siteId: number;
  kind: IgnorableKind;
  direction: 'ignore' | 'unignore';
  slugs: string[];
  /** Indices into the plan's actions. */
  actions: number[];
}

export interface UpdateCall {
  type: 'run-updates';
  siteIds: number[];
  items: ItemRef[];
  actions: number[];
}

export type ApplyCall = IgnoreCall | UpdateCall;

export interface CallPhase {
  kind: 'ignore' | 'unignore' | 'update';
  /** The rollout wave of an update phase (`undefined` when the plan has no waves). */
  wave: string | undefined;
  calls: ApplyCall[];
}

export function batchPlan(actions: readonly Action[], queueThreshold: number): CallPhase[] {
  const chunkSize = Math.max(1, Math.floor(queueThreshold));
  const phases: CallPhase[] = [];
  for (const direction of ['ignore', 'unignore'] as const) {
    const calls = ignoreCalls(actions, direction);
    if (calls.length > 0) phases.push({ kind: direction, wave: undefined, calls });
  }
  for (const [wave, indices] of updatesByWave(actions)) {
    phases.push({ kind: 'update', wave, calls: updateCalls(actions, indices, chunkSize) });
  }
  return phases;
}

/**
 * The number of calls the plan needs under the grouping rules, counted independently of
 * `batchPlan` (the benchmark's denominator): one per (site, kind, direction) with ignores or
 * unignores, plus per wave and per identical item set ⌈sites ÷ threshold⌉ times the number of
 * look-alike kinds (core, theme, translation) in the set, at least one.
 */
export function minimumCalls(plan: Pick<Plan, 'actions'>, queueThreshold: number): number {
  const chunkSize = Math.max(1, Math.floor(queueThreshold));
  const ignoreKeys = new Set<string>();
  const itemsBySite = new Map<string, Map<string, ItemKind>>();
  for (const action of plan.actions) {
    if (action.op !== 'update') {
      ignoreKeys.add(JSON.stringify([action.op, action.site_id, action.kind]));
      continue;
    }
    const siteKey = JSON.stringify([action.wave ?? null, action.site_id]);
    const items = itemsBySite.get(siteKey) ?? new Map<string, ItemKind>();
    items.set(JSON.stringify([action.kind, action.slug]), action.kind);
    itemsBySite.set(siteKey, items);
  }
  const groups = new Map<string, { sites: number; kinds: Set<ItemKind> }>();
  for (const [siteKey, items] of itemsBySite) {
    const wave = (JSON.parse(siteKey) as [string | null, number])[0];
    const key = JSON.stringify([wave, [...items.keys()].sort()]);
    const group = groups.get(key) ?? { sites: 0, kinds: new Set(items.values()) };
    group.sites += 1;
    groups.set(key, group);
  }
  let updateCallCount = 0;
  for (const { sites, kinds } of groups.values()) {
    // Core, theme and translation slugs look alike: each of those kinds needs its own call.
    const separateKinds = (['core', 'theme', 'translation'] as const).filter((kind) =>
      kinds.has(kind),
    ).length;
    updateCallCount += Math.ceil(sites / chunkSize) * Math.max(1, separateKinds);
  }
  return ignoreKeys.size + updateCallCount;
}

function ignoreCalls(actions: readonly Action[], direction: 'ignore' | 'unignore'): IgnoreCall[] {
  const calls = new Map<string, IgnoreCall>();
  actions.forEach((action, index) => {
    if (action.op !== direction || action.kind === 'translation') return;
    const key = `${action.site_id}|${action.kind}`;
    let call = calls.get(key);
    if (!call) {
      call = {
        type: 'set-ignored',
        siteId: action.site_id,
        kind: action.kind,
        direction,
        slugs: [],
        actions: [],
      };
      calls.set(key, call);
    }
    if (!call.slugs.includes(action.slug)) call.slugs.push(action.slug);
    call.actions.push(index);
  });
  return [...calls.values()];
}

/** Update action indices per wave, waves in the order the plan first mentions them. */
function updatesByWave(actions: readonly Action[]): Map<string | undefined, number[]> {
  const waves = new Map<string | undefined, number[]>();
  actions.forEach((action, index) => {
    if (action.op !== 'update') return;
    const list = waves.get(action.wave) ?? [];
    list.push(index);
    waves.set(action.wave, list);
  });
  return waves;
}

function updateCalls(actions: readonly Action[], indices: number[], chunkSize: number): UpdateCall[] {
  // site → its planned items (deduplicated: translations repeat a slug per language).
  const perSite = new Map<number, { items: Map<string, ItemRef>; actions: number[] }>();
  for (const index of indices) {
    const action = actions[index]!;
    let site = perSite.get(action.site_id);
    if (!site) {
      site = { items: new Map(), actions: [] };
      perSite.set(action.site_id, site);
    }
    site.items.set(`${action.kind}|${action.slug}`, { kind: action.kind, slug: action.slug });
    site.actions.push(index);
  }
  const groups = new Map<string, { items: ItemRef[]; sites: Array<{ id: number; actions: number[] }> }>();
  for (const [siteId, site] of perSite) {
    const keys = [...site.items.keys()].sort();
    const groupKey = keys.join('\n');
    let group = groups.get(groupKey);
    if (!group) {
      group = { items: keys.map((key) => site.items.get(key)!), sites: [] };
      groups.set(groupKey, group);
    }
    group.sites.push({ id: siteId, actions: site.actions });
  }
  const calls: UpdateCall[] = [];
  for (const group of groups.values()) {
    const sites = [...group.sites].sort((a, b) => a.id - b.id);
    for (const items of slugSafeSubsets(group.items)) {
      const wanted = new Set(items.map((item) => `${item.kind}|${item.slug}`));
      for (let start = 0; start < sites.length; start += chunkSize) {
        const chunk = sites.slice(start, start + chunkSize);
        calls.push({
          type: 'run-updates',
          siteIds: chunk.map((site) => site.id),
          items,
          actions: chunk.flatMap((site) =>
            site.actions.filter((index) => wanted.has(`${actions[index]!.kind}|${actions[index]!.slug}`)),
          ),
        });
      }
    }
  }
  return calls;
}

/**
 * run-updates matches `specific_items` by slug within `types`, so a call must not combine kinds
 * whose slugs look alike: a theme `astra` next to translations would also run an unplanned
 * translation `astra`. Plugin slugs (`folder/file.php`) cannot be mistaken for anything else;
 * core (`wordpress`), themes and translations (folder names) each need a call of their own.
 * Plugins ride along with the first. The dashboard client applies the same rule, so every
 * UpdateCall is exactly one request.
 */
function slugSafeSubsets(items: ItemRef[]): ItemRef[][] {
  const byKind = new Map<string, ItemRef[]>();
  for (const item of items) {
    const list = byKind.get(item.kind);
    if (list) list.push(item);
    else byKind.set(item.kind, [item]);
  }
  const plugins = byKind.get('plugin') ?? [];
  byKind.delete('plugin');
  const subsets = [...byKind.values()];
  if (subsets.length === 0) return [plugins];
  subsets[0] = [...subsets[0]!, ...plugins].sort(compareItems);
  return subsets;
}

function compareItems(a: ItemRef, b: ItemRef): number {
  const x = `${a.kind}|${a.slug}`;
  const y = `${b.kind}|${b.slug}`;
  return x < y ? -1 : x > y ? 1 : 0;
}
