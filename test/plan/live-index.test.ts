/**
 * One live indexer: the fingerprints a plan records and the ones apply recomputes from its
 * re-read come from the same index (live-index.ts), so the same live state, listed in any order
 * the dashboard may list it, gives the same fingerprints at plan time and at apply time, and a
 * re-read that moved is refused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkLiveUnchanged } from '../../src/apply/guard.js';
import { verifyOutcomes } from '../../src/apply/verify.js';
import { createPlan, fingerprintIndexed, indexLiveState } from '../../src/plan/index.js';
import type { ItemRef, LiveState, Plan } from '../../src/types.js';
import {
  desiredState,
  ignored,
  ignoreRule,
  liveState,
  PLAN_OPTIONS,
  policy,
  site,
  update,
} from './builders.js';

const SLUGS = ['a/a.php', 'b/b.php', 'c/c.php'];
const MOVES: Array<[string, string]> = [
  ['1.0', '1.0.1'],
  ['1.0', '1.1'],
  ['1.0.1', '2.0'],
];
const ids = [1, 2, 3, 4];

/** A live state as a read assembles it: sites ascending, each site's facts together and sorted. */
const live: fc.Arbitrary<LiveState> = fc
  .record({
    pending: fc.uniqueArray(
      fc.record({
        siteId: fc.constantFrom(...ids),
        slug: fc.constantFrom(...SLUGS),
        move: fc.constantFrom(...MOVES),
      }),
      { maxLength: 12, selector: (p) => `${p.siteId} ${p.slug}` },
    ),
    ignores: fc.array(
      fc.record({
        siteId: fc.constantFrom(...ids),
        slug: fc.constantFrom(...SLUGS),
        versions: fc.oneof(
          fc.constant('all' as const),
          fc.subarray(['1.0.1', '1.1', '2.0'], { minLength: 1 }),
        ),
        origin: fc.constantFrom('site', 'global', 'site-flag' as const),
      }),
      { maxLength: 6 },
    ),
  })
  .map((r) =>
    liveState({
      sites: ids.map((id) => site(id)),
      pending: r.pending
        .map((p) => update(p.siteId, 'plugin', p.slug, p.move[0], p.move[1]))
        .sort((a, b) => a.siteId - b.siteId || a.slug.localeCompare(b.slug)),
      ignores: r.ignores
        .map((i) =>
          ignored(i.siteId, 'plugin', i.origin === 'site-flag' ? '*' : i.slug, {
            versions: i.versions,
            origin: i.origin,
          }),
        )
        .sort((a, b) => a.siteId - b.siteId),
    }),
  );

const desired = fc
  .record({ remove: fc.subarray(SLUGS), max: fc.constantFrom('patch', 'minor', 'major' as const) })
  .map((r) =>
    desiredState({
      ignoreScope: 'remove',
      ignores: r.remove.length > 0 ? [ignoreRule({ plugins: r.remove })] : [],
      policies: [policy({ name: 'all', kinds: ['plugin'], maxLevel: r.max })],
    }),
  );

/** The same facts in another order: every list shuffled, so each site's facts come in several runs. */
function relisted(state: LiveState, keys: number[]): LiveState {
  const shuffle = <T>(list: readonly T[], salt: number): T[] =>
    list
      .map((item, i) => ({ item, key: keys[(i + salt) % keys.length] ?? i }))
      .sort((a, b) => a.key - b.key)
      .map(({ item }) => item);
  return {
    ...state,
    sites: shuffle(state.sites, 1),
    pending: shuffle(state.pending, 2),
    ignores: shuffle(state.ignores, 3),
  };
}

function touchedItems(plan: Plan): Map<number, ItemRef[]> {
  const items = new Map<number, ItemRef[]>();
  for (const action of plan.actions) {
    const list = items.get(action.site_id) ?? [];
    list.push({ kind: action.kind, slug: action.slug });
    items.set(action.site_id, list);
  }
  return items;
}

describe('one live indexer for plan and apply', () => {
  it('plan-time and apply-time fingerprints of the same live state agree, in any listing order', async () => {
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(
        desired,
        live,
        fc.array(fc.nat(1000), { minLength: 1, maxLength: 40 }),
        async (want, have, keys) => {
          const plan = createPlan(want, have, PLAN_OPTIONS);
          const reread = relisted(have, keys);
          const index = indexLiveState(reread);
          for (const [siteId, items] of touchedItems(plan)) {
            expect(fingerprintIndexed(index, siteId, items)).toBe(plan.fingerprints[String(siteId)]);
            checked++;
          }
          // Apply's own re-check, on a dashboard that lists the same facts in that order.
          await expect(checkLiveUnchanged(plan, { readLive: async () => reread })).resolves.toBe(reread);
        },
      ),
      { numRuns: 300 },
    );
    expect(checked).toBeGreaterThan(100);
  });

  it('a re-read whose touched facts moved is refused, whatever order it is listed in', async () => {
    const have = liveState({
      sites: [site(1), site(2)],
      pending: [
        update(1, 'plugin', 'a/a.php', '1.0', '1.0.1'),
        update(2, 'plugin', 'a/a.php', '1.0', '1.0.1'),
      ],
      ignores: [ignored(2, 'plugin', 'b/b.php')],
    });
    const plan = createPlan(
      desiredState({ policies: [policy({ name: 'all', kinds: ['plugin'], maxLevel: 'patch' })] }),
      have,
      PLAN_OPTIONS,
    );
    expect(plan.actions.map((a) => a.site_id)).toEqual([1, 2]);
    const moved: LiveState = {
      ...have,
      sites: [site(2), site(1)],
      pending: [
        update(2, 'plugin', 'a/a.php', '1.0', '1.0.2'),
        update(1, 'plugin', 'a/a.php', '1.0', '1.0.1'),
      ],
    };
    await expect(checkLiveUnchanged(plan, { readLive: async () => moved })).rejects.toMatchObject({
      code: 'PREVIEW_REQUIRED',
      details: { changed_sites: [2] },
    });
  });

  it("apply's verification reads the re-read through the same index", async () => {
    const action = {
      op: 'update' as const,
      site_id: 1,
      site_url: site(1).url,
      kind: 'plugin' as const,
      slug: 'a/a.php',
      name: 'a/a.php',
      from: '1.0',
      to: '1.0.1',
      risk: 'low' as const,
      reason: 'policy all',
    };
    const still = liveState({
      sites: [site(2), site(1)],
      pending: [
        update(2, 'plugin', 'a/a.php', '1.0', '1.0.1'),
        update(1, 'plugin', 'a/a.php', '1.0', '1.0.1'),
      ],
    });
    const report = await verifyOutcomes({ readLive: async () => still }, [{ action, status: 'done' }]);
    expect(report.outcomes[0]).toMatchObject({ status: 'failed', code: 'NOT_APPLIED' });
  });
});
