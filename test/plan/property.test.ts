/**
 * Properties of every plan, checked on random small fleets and desired states with an
 * independent (deliberately naive) oracle: no update of an ignored or held item, no action on
 * an unselected or unreadable site, updates only on connected sites and within some policy.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareActions,
  createPlan,
  matchesSelection,
  verifyPlanId,
  versionLevel,
  withinPin,
} from '../../src/plan/index.js';
import type { DesiredState, LiveState, SiteSelection, VersionLevel } from '../../src/types.js';
import {
  desiredState,
  hold,
  ignoreRule,
  liveState,
  PLAN_OPTIONS,
  policy,
  REST,
  select,
  site,
} from './builders.js';
import { globMatches } from './naive-glob.js';

const SLUGS = ['a/a.php', 'b/b.php', 'c/c.php'];
const VERSIONS = ['1.0', '1.0.1', '1.1', '2.0'];
/** Mostly real updates (patch, minor, major), and one downgrade the planner must leave alone. */
const MOVES: Array<[string, string]> = [
  ['1.0', '1.0.1'],
  ['1.0', '1.1'],
  ['1.0.1', '2.0'],
  ['1.1', '1.0.1'],
];
const LEVELS: VersionLevel[] = ['patch', 'minor', 'major'];
const ids = [1, 2, 3, 4, 5];

const selection: fc.Arbitrary<SiteSelection> = fc
  .tuple(fc.subarray(ids), fc.subarray(ids, { maxLength: 1 }), fc.boolean())
  .map(([include, exclude, all]) =>
    select(
      all ? [{ type: 'all' }] : include.map((id) => ({ type: 'id' as const, id })),
      exclude.map((id) => ({ type: 'id' as const, id })),
    ),
  );

const live: fc.Arbitrary<LiveState> = fc
  .record({
    statuses: fc.array(
      fc.constantFrom(
        'connected',
        'connected',
        'connected',
        'connected',
        'disconnected',
        'suspended' as const,
      ),
      { minLength: 5, maxLength: 5 },
    ),
    pending: fc.array(
      fc.record({
        siteId: fc.constantFrom(...ids),
        slug: fc.constantFrom(...SLUGS),
        move: fc.constantFrom(...MOVES),
      }),
      { maxLength: 20 },
    ),
    ignores: fc.array(
      fc.record({
        siteId: fc.constantFrom(...ids),
        slug: fc.constantFrom(...SLUGS),
        versions: fc.oneof(fc.constant('all' as const), fc.subarray(VERSIONS, { minLength: 1 })),
        origin: fc.constantFrom('site', 'site', 'site', 'global', 'site-flag' as const),
      }),
      { maxLength: 6 },
    ),
    unreadable: fc.subarray(ids, { maxLength: 1 }),
    rest: fc.boolean(),
  })
  .map((r) =>
    liveState({
      sites: ids.map((id, i) => site(id, { status: r.statuses[i]! })),
      pending: r.pending.map((p) => ({
        siteId: p.siteId,
        slug: p.slug,
        from: p.move[0],
        to: p.move[1],
        kind: 'plugin' as const,
        name: p.slug,
      })),
      ignores: r.ignores.map((i) => ({
        ...i,
        kind: 'plugin' as const,
        slug: i.origin === 'site-flag' ? '*' : i.slug,
      })),
      unreadable: r.unreadable.map((siteId) => ({
        siteId,
        url: site(siteId).url,
        code: 'x',
        message: 'unreadable',
      })),
      ...(r.rest ? { capabilities: REST } : {}),
    }),
  );

const desired: fc.Arbitrary<DesiredState> = fc
  .record({
    sites: fc.oneof(fc.constant(select([{ type: 'all' }])), selection),
    scope: fc.constantFrom('remove', 'report', 'keep' as const),
    ignores: fc.array(fc.record({ selection, plugins: fc.subarray(SLUGS) }), { maxLength: 3 }),
    policies: fc.array(
      fc.record({ selection, include: fc.subarray(['a*', 'b/*', '*']), max: fc.constantFrom(...LEVELS) }),
      { minLength: 1, maxLength: 3 },
    ),
    holds: fc.array(
      fc.record({
        selection,
        slug: fc.constantFrom('a/a.php', 'b*', '?/?.php'),
        pin: fc.option(fc.constantFrom(...VERSIONS), { nil: undefined }),
      }),
      { maxLength: 2 },
    ),
  })
  .map((r) =>
    desiredState({
      sites: r.sites,
      ignoreScope: r.scope,
      ignores: r.ignores.map((i) => ignoreRule({ selection: i.selection, plugins: i.plugins })),
      policies: r.policies.map((p, n) =>
        policy({
          name: `p${n}`,
          selection: p.selection,
          kinds: ['plugin'],
          include: p.include,
          maxLevel: p.max,
        }),
      ),
      holds: r.holds.map((h) =>
        hold({
          selection: h.selection,
          kind: 'plugin',
          slug: h.slug,
          ...(h.pin ? { maxVersion: h.pin } : {}),
        }),
      ),
    }),
  );

const order: Record<VersionLevel, number> = { none: 0, patch: 1, minor: 2, major: 3 };

describe('plan properties', () => {
  it('never updates ignored or held items and never touches unselected or unreadable sites', () => {
    let updates = 0;
    let held = 0;
    fc.assert(
      fc.property(desired, live, (want, have) => {
        const plan = createPlan(want, have, PLAN_OPTIONS);
        // The id createPlan writes from its own records is the one any reader computes.
        expect(verifyPlanId(plan)).toBe(true);
        updates += plan.summary.update;
        // The stated order (these desired states have no waves), each action once.
        const byOrder = compareActions(() => 0);
        for (let i = 1; i < plan.actions.length; i++) {
          expect(byOrder(plan.actions[i - 1]!, plan.actions[i]!)).toBeLessThan(0);
        }
        // Held updates, not notes: one note covers every site holding the same target.
        for (const note of plan.notes) if (note.kind === 'held') held += note.site_ids?.length ?? 0;
        for (const action of plan.actions) {
          const target = have.sites.find((s) => s.id === action.site_id)!;
          expect(matchesSelection(target, want.sites)).toBe(true);
          expect(have.unreadable.some((u) => u.siteId === action.site_id)).toBe(false);
          if (action.op !== 'update') continue;
          expect(target.status).toBe('connected');
          const desiredIgnore = want.ignores.some(
            (r) => matchesSelection(target, r.selection) && r.plugins.includes(action.slug),
          );
          expect(desiredIgnore).toBe(false);
          const unignored = plan.actions.some(
            (a) => a.op === 'unignore' && a.site_id === action.site_id && a.slug === action.slug,
          );
          const keptIgnore = have.ignores.some(
            (i) =>
              i.siteId === action.site_id &&
              (i.origin === 'site-flag' ||
                (i.slug === action.slug &&
                  !(unignored && i.origin === 'site') &&
                  (i.versions === 'all' || i.versions.includes(action.to ?? '')))),
          );
          expect(keptIgnore).toBe(false);
          const blocked = want.holds.some(
            (h) =>
              matchesSelection(target, h.selection) &&
              globMatches(h.slug, action.slug) &&
              (h.maxVersion === undefined || !withinPin(action.to ?? '', h.maxVersion)),
          );
          expect(blocked).toBe(false);
          const level = versionLevel(action.from ?? '', action.to ?? '');
          const allowed = want.policies.some(
            (p) =>
              matchesSelection(target, p.selection) &&
              (p.include.length === 0 || p.include.some((g) => globMatches(g, action.slug))) &&
              order[level] <= order[p.maxLevel] &&
              level !== 'none',
          );
          expect(allowed).toBe(true);
        }
      }),
      // Seeded: with an unseeded run the counts below vary by run (seed 113 gives 7 held), so
      // the gate failed about one run in 150. Seed 4 gives 129 updates and 19 held.
      { numRuns: 300, seed: 4 },
    );
    // The generators must exercise the interesting paths, or the property proves nothing.
    // Deterministic under the seed, so a planner that stops noting held updates (or stops
    // planning updates) fails here on every run.
    expect(updates).toBeGreaterThan(40);
    expect(held).toBeGreaterThan(8);
  });
});
