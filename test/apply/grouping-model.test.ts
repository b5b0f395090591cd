import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchPlan } from '../../src/apply/batch.js';
import type { Action, ItemKind } from '../../src/types.js';
import { ignore, update } from './builders.js';

/**
 * The grouping against a model of the dashboard: sites hold pending items, some hidden by
 * per-site ignores. A run-updates call runs, on each of its sites, every visible pending item
 * whose kind and slug are among the call's kinds and slugs; set-ignored hides or shows one. The
 * batched calls must leave the model exactly as the plan's actions applied one by one do, must
 * never run an item the plan does not update on that site, and no two calls of one phase (they
 * run in parallel) may name the same pending item of a site.
 */

type Key = string; // `${site}|${kind}|${slug}`
const key = (site: number, kind: string, slug: string): Key => `${site}|${kind}|${slug}`;

interface Model {
  pending: Set<Key>;
  hidden: Set<Key>;
}

interface World {
  model: Model;
  actions: Action[];
}

const KINDS: ItemKind[] = ['core', 'plugin', 'theme', 'translation'];
const SLUGS = ['a', 'b', 'c', 'wordpress'];

/** Sites with pending items (some hidden), and a plan that updates some and unignores some. */
const worlds = fc
  .record({
    sites: fc.integer({ min: 1, max: 14 }),
    items: fc.array(
      fc.record({
        site: fc.integer({ min: 1, max: 14 }),
        kind: fc.constantFrom(...KINDS),
        slug: fc.constantFrom(...SLUGS),
        hidden: fc.boolean(),
        // What the plan does with it: leave it, update it, or (hidden) unignore and maybe update it.
        plan: fc.constantFrom('leave', 'update', 'update', 'unignore', 'unignore-update'),
        wave: fc.constantFrom(undefined, 'w1', 'w2'),
      }),
      { maxLength: 50 },
    ),
  })
  .map(({ sites, items }): World => {
    const model: Model = { pending: new Set(), hidden: new Set() };
    const actions: Action[] = [];
    const seen = new Set<Key>();
    const waveOf = new Map<number, string | undefined>();
    for (const item of items) {
      const site = ((item.site - 1) % sites) + 1;
      const k = key(site, item.kind, item.slug);
      if (seen.has(k)) continue;
      seen.add(k);
      model.pending.add(k);
      // A site belongs to one wave (its first), as the planner assigns them.
      if (!waveOf.has(site)) waveOf.set(site, item.wave);
      const wave = waveOf.get(site);
      const canIgnore = item.kind !== 'translation';
      if (item.hidden && canIgnore) model.hidden.add(k);
      const visible = !model.hidden.has(k);
      const unignore = !visible && (item.plan === 'unignore' || item.plan === 'unignore-update');
      if (unignore)
        actions.push(ignore(site, item.kind as 'core' | 'plugin' | 'theme', item.slug, 'unignore'));
      if ((visible && item.plan === 'update') || (unignore && item.plan === 'unignore-update'))
        actions.push(update(site, item.kind, item.slug, wave ? { wave } : {}));
    }
    return { model, actions };
  });

function visiblePending(model: Model): Array<{ siteId: number; kind: ItemKind; slug: string }> {
  return [...model.pending]
    .filter((k) => !model.hidden.has(k))
    .map((k) => {
      const [site, kind, slug] = k.split('|');
      return { siteId: Number(site), kind: kind as ItemKind, slug: slug! };
    });
}

function applyOneByOne({ model, actions }: World): Model {
  const out: Model = { pending: new Set(model.pending), hidden: new Set(model.hidden) };
  for (const op of ['ignore', 'unignore', 'update'] as const)
    for (const a of actions) {
      if (a.op !== op) continue;
      const k = key(a.site_id, a.kind, a.slug);
      if (op === 'ignore') out.hidden.add(k);
      else if (op === 'unignore') out.hidden.delete(k);
      else if (!out.hidden.has(k)) out.pending.delete(k);
    }
  return out;
}

function applyBatched(world: World, threshold: number, withLive: boolean): Model {
  const out: Model = { pending: new Set(world.model.pending), hidden: new Set(world.model.hidden) };
  const planned = new Set(
    world.actions.filter((a) => a.op === 'update').map((a) => key(a.site_id, a.kind, a.slug)),
  );
  const phases = batchPlan(world.actions, threshold, withLive ? visiblePending(world.model) : undefined);
  for (const phase of phases) {
    const namedInPhase = new Set<Key>();
    const runs: Key[] = [];
    for (const call of phase.calls) {
      if (call.type === 'set-ignored') {
        for (const slug of call.slugs) {
          const k = key(call.siteId, call.kind, slug);
          if (call.direction === 'ignore') out.hidden.add(k);
          else out.hidden.delete(k);
        }
        continue;
      }
      expect(call.siteIds.length).toBeLessThanOrEqual(threshold);
      const kinds = new Set(call.items.map((i) => i.kind));
      const slugs = new Set(call.items.map((i) => i.slug));
      for (const site of call.siteIds)
        for (const kind of kinds)
          for (const slug of slugs) {
            const k = key(site, kind, slug);
            if (!out.pending.has(k) || out.hidden.has(k)) continue;
            // A visible pending item the call runs: planned here, and named by no other call of the phase.
            expect(planned.has(k), `call ran ${k}, which the plan does not update`).toBe(true);
            expect(namedInPhase.has(k), `two calls of one phase run ${k}`).toBe(false);
            namedInPhase.add(k);
            runs.push(k);
          }
    }
    for (const k of runs) out.pending.delete(k);
  }
  return out;
}

const sorted = (model: Model) => ({ pending: [...model.pending].sort(), hidden: [...model.hidden].sort() });

describe('batched calls against a model of the dashboard (property)', () => {
  it('leave the dashboard as the actions one by one do, with and without the live state', () => {
    fc.assert(
      fc.property(
        worlds,
        // 200: every site fits one call, so the bounded search (update-search.ts) runs too.
        fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constant(200)),
        fc.boolean(),
        (world, threshold, withLive) => {
          expect(sorted(applyBatched(world, threshold, withLive))).toEqual(sorted(applyOneByOne(world)));
          // Every action is carried by exactly one call.
          const carried = batchPlan(
            world.actions,
            threshold,
            withLive ? visiblePending(world.model) : undefined,
          )
            .flatMap((p) => p.calls.flatMap((c) => c.actions))
            .sort((a, b) => a - b);
          expect(carried).toEqual(world.actions.map((_, i) => i));
        },
      ),
      { numRuns: 400 },
    );
  });
});
