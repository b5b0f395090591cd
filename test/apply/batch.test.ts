import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchPlan, type UpdateCall } from '../../src/apply/batch.js';
import type { Action } from '../../src/types.js';
import { ignore, update } from './builders.js';

describe('batchPlan', () => {
  it('sends one ignore call per site, kind and direction, ignores before unignores before updates', () => {
    const actions = [
      ignore(1, 'plugin', 'a/a.php'),
      ignore(1, 'plugin', 'b/b.php'),
      ignore(1, 'theme', 't'),
      ignore(2, 'plugin', 'a/a.php', 'unignore'),
      ignore(1, 'plugin', 'c/c.php', 'unignore'),
      update(1, 'plugin', 'x/x.php'),
    ];
    const phases = batchPlan(actions, 200);
    expect(phases.map((p) => p.kind)).toEqual(['ignore', 'unignore', 'update']);
    expect(phases[0]!.calls).toEqual([
      {
        type: 'set-ignored',
        siteId: 1,
        kind: 'plugin',
        direction: 'ignore',
        slugs: ['a/a.php', 'b/b.php'],
        actions: [0, 1],
      },
      { type: 'set-ignored', siteId: 1, kind: 'theme', direction: 'ignore', slugs: ['t'], actions: [2] },
    ]);
    expect(phases[1]!.calls).toHaveLength(2);
  });

  it('without the live state, groups by item across sites and never names an item a site does not want', () => {
    const actions = [
      update(1, 'plugin', 'a/a.php'),
      update(1, 'theme', 't'),
      update(2, 'theme', 't'),
      update(2, 'plugin', 'a/a.php'),
      update(3, 'plugin', 'a/a.php'),
    ];
    const [phase] = batchPlan(actions, 200);
    const calls = phase!.calls as UpdateCall[];
    expect(calls.map((c) => [c.siteIds, c.items])).toEqual([
      [[1, 2, 3], [{ kind: 'plugin', slug: 'a/a.php' }]],
      [[1, 2], [{ kind: 'theme', slug: 't' }]],
    ]);
  });

  it('with the live state, one call runs different item sets where nothing unwanted is pending', () => {
    const actions = [
      update(1, 'plugin', 'a/a.php'),
      update(1, 'theme', 't'),
      update(2, 'plugin', 'b/b.php'),
      update(3, 'plugin', 'a/a.php'),
    ];
    const pending = [
      { siteId: 1, kind: 'plugin' as const, slug: 'a/a.php' },
      { siteId: 1, kind: 'theme' as const, slug: 't' },
      { siteId: 2, kind: 'plugin' as const, slug: 'b/b.php' },
      { siteId: 3, kind: 'plugin' as const, slug: 'a/a.php' },
      // Site 3 also has b/b.php pending, which the plan does not update there.
      { siteId: 3, kind: 'plugin' as const, slug: 'b/b.php' },
    ];
    const calls = batchPlan(actions, 200, pending)[0]!.calls as UpdateCall[];
    // Identical item sets alone would take three calls.
    expect(calls).toHaveLength(2);
    expect(calls.flatMap((c) => c.actions).sort()).toEqual([0, 1, 2, 3]);
    const withSite3 = calls.find((c) => c.siteIds.includes(3))!;
    expect(withSite3.items.map((i) => i.slug)).not.toContain('b/b.php');
  });

  it('chunks groups at the queue threshold and keeps waves apart, in plan order', () => {
    const actions: Action[] = [];
    for (let id = 1; id <= 5; id += 1) actions.push(update(id, 'plugin', 'a/a.php', { wave: 'canary' }));
    for (let id = 6; id <= 7; id += 1) actions.push(update(id, 'plugin', 'a/a.php', { wave: 'rest' }));
    const phases = batchPlan(actions, 2);
    expect(phases.map((p) => [p.wave, p.calls.map((c) => (c as UpdateCall).siteIds)])).toEqual([
      ['canary', [[1, 2], [3, 4], [5]]],
      ['rest', [[6, 7]]],
    ]);
  });

  it('deduplicates translation items that repeat a slug per language', () => {
    const actions = [
      update(1, 'translation', 'default', { from: '1', to: '' }),
      update(1, 'translation', 'default', { from: '2', to: '' }),
    ];
    const calls = batchPlan(actions, 200)[0]!.calls as UpdateCall[];
    expect(calls).toHaveLength(1);
    expect(calls[0]!.items).toEqual([{ kind: 'translation', slug: 'default' }]);
    expect(calls[0]!.actions).toEqual([0, 1]);
  });

  it('holds its invariants on arbitrary plans (property)', () => {
    const action = fc
      .record({
        op: fc.constantFrom('ignore', 'unignore', 'update'),
        site: fc.integer({ min: 1, max: 12 }),
        kind: fc.constantFrom('plugin', 'theme', 'core', 'translation'),
        slug: fc.constantFrom('a', 'b', 'c'),
        wave: fc.constantFrom(undefined, 'w1', 'w2'),
      })
      .map(({ op, site, kind, slug, wave }) =>
        // Translations cannot be ignored (applyPlan blocks such actions before batching).
        op === 'update' || kind === 'translation'
          ? update(site, kind, slug, wave ? { wave } : {})
          : ignore(site, kind, slug, op as 'ignore' | 'unignore'),
      );
    fc.assert(
      fc.property(
        fc.array(action, { maxLength: 60 }),
        fc.integer({ min: 1, max: 5 }),
        (actions, threshold) => {
          const phases = batchPlan(actions, threshold);
          const seen = phases.flatMap((p) => p.calls.flatMap((c) => c.actions)).sort((a, b) => a - b);
          expect(seen).toEqual(actions.map((_, i) => i));
          for (const call of phases.flatMap((p) => p.calls)) {
            if (call.type !== 'run-updates') continue;
            expect(call.siteIds.length).toBeLessThanOrEqual(threshold);
            // Without the live state every (kind, slug) of the call's product is planned on each site.
            const planned = new Set(
              call.actions.map((i) => `${actions[i]!.site_id}|${actions[i]!.kind}|${actions[i]!.slug}`),
            );
            for (const site of call.siteIds)
              for (const kind of new Set(call.items.map((i) => i.kind)))
                for (const slug of new Set(call.items.map((i) => i.slug)))
                  expect(planned.has(`${site}|${kind}|${slug}`)).toBe(true);
          }
        },
      ),
    );
  });
});

describe('batchPlan and look-alike slugs', () => {
  const actions = [
    update(1, 'theme', 'astra'),
    update(1, 'translation', 'astra', { from: '1', to: '' }),
    update(1, 'plugin', 'a/a.php'),
    update(1, 'core', 'wordpress'),
  ];

  it('without the live state, names together only kinds × slugs all planned on the site', () => {
    const calls = batchPlan(actions, 200)[0]!.calls as UpdateCall[];
    const planned = new Set(actions.map((a) => `${a.kind}|${a.slug}`));
    for (const call of calls)
      for (const kind of new Set(call.items.map((i) => i.kind)))
        for (const slug of new Set(call.items.map((i) => i.slug)))
          expect(planned).toContain(`${kind}|${slug}`);
    // Theme and translation `astra` are both planned, so they share a call; plugin `a/a.php` and
    // core `wordpress` cannot join them (theme `a/a.php` or translation `wordpress` is not planned).
    expect(calls.map((c) => c.items.map((i) => `${i.kind} ${i.slug}`).sort()).sort()).toEqual([
      ['core wordpress'],
      ['plugin a/a.php'],
      ['theme astra', 'translation astra'],
    ]);
  });

  it('with the live state, mixes kinds when nothing else is pending, and keeps a pending look-alike out', () => {
    const pending = actions.map((a) => ({ siteId: a.site_id, kind: a.kind, slug: a.slug }));
    expect(batchPlan(actions, 200, pending)[0]!.calls).toHaveLength(1);
    // A pending translation `a` the plan leaves alone: no call may name slug `a` with translations.
    const more = [...actions, update(1, 'theme', 'a')];
    const calls = batchPlan(more, 200, [
      ...pending,
      { siteId: 1, kind: 'theme', slug: 'a' },
      { siteId: 1, kind: 'translation', slug: 'a' },
    ])[0]!.calls as UpdateCall[];
    for (const call of calls) {
      const kinds = new Set(call.items.map((i) => i.kind));
      const slugs = new Set(call.items.map((i) => i.slug));
      expect(kinds.has('translation') && slugs.has('a')).toBe(false);
    }
    expect(calls.flatMap((c) => c.actions).sort()).toEqual([0, 1, 2, 3, 4]);
  });
});
