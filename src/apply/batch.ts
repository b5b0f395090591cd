import type { Action, IgnorableKind, ItemRef, PendingUpdate } from '../types.js';
import { groupUpdates } from './update-grouping.js';

/**
 * Plan actions → few dashboard calls that do exactly the plan. Pure.
 *
 * Invariants:
 * - every action index appears in exactly one call;
 * - an update call runs `types` × `specific_items` (the kinds and slugs of `items`) on its
 *   sites, and that product holds, on each of its sites, nothing pending that the plan does not
 *   update there and nothing another call runs there (update-grouping.ts); the dashboard client
 *   sends it as one request;
 * - an update call holds at most `queueThreshold` sites, so the dashboard never queues it;
 * - ignores are one call per site, kind and direction (the interface has no multi-site ignore);
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

export function batchPlan(
  actions: readonly Action[],
  queueThreshold: number,
  /** The live pending updates of the touched sites (read before writing), when known. */
  pending?: readonly Pick<PendingUpdate, 'siteId' | 'kind' | 'slug'>[],
): CallPhase[] {
  const chunkSize = Math.max(1, Math.floor(queueThreshold));
  const pendingOf = pendingIndex(actions, pending);
  const phases: CallPhase[] = [];
  for (const direction of ['ignore', 'unignore'] as const) {
    const calls = ignoreCalls(actions, direction);
    if (calls.length > 0) phases.push({ kind: direction, wave: undefined, calls });
  }
  for (const [wave, indices] of updatesByWave(actions)) {
    phases.push({ kind: 'update', wave, calls: updateCalls(actions, indices, chunkSize, pendingOf) });
  }
  return phases;
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

function updateCalls(
  actions: readonly Action[],
  indices: number[],
  chunkSize: number,
  pendingOf: ((siteId: number) => Iterable<ItemRef>) | undefined,
): UpdateCall[] {
  return groupUpdates({ actions, indices, maxSites: chunkSize, pendingOf }).map((call) => ({
    type: 'run-updates',
    ...call,
  }));
}

/**
 * What may be pending on each site once the ignore phases ran: the live pending items, plus what
 * this apply unignores (a hidden pending update shows again). Undefined without a live state.
 */
function pendingIndex(
  actions: readonly Action[],
  pending: readonly Pick<PendingUpdate, 'siteId' | 'kind' | 'slug'>[] | undefined,
): ((siteId: number) => Iterable<ItemRef>) | undefined {
  if (!pending) return undefined;
  const bySite = new Map<number, ItemRef[]>();
  const add = (siteId: number, item: ItemRef) => {
    const list = bySite.get(siteId);
    if (list) list.push(item);
    else bySite.set(siteId, [item]);
  };
  for (const p of pending) add(p.siteId, { kind: p.kind, slug: p.slug });
  for (const a of actions) if (a.op === 'unignore') add(a.site_id, { kind: a.kind, slug: a.slug });
  return (siteId) => bySite.get(siteId) ?? [];
}
