import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchPlan, minimumCalls, type UpdateCall } from '../../src/apply/batch.js';
import type { Action } from '../../src/types.js';
import { ignore, planOf, update } from './builders.js';

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

  it('groups update sites by identical item set and never adds an item to a site', () => {
    const actions = [
      update(1, 'plugin', 'a/a.php'),
      update(1, 'theme', 't'),
      update(2, 'theme', 't'),
      update(2, 'plugin', 'a/a.php'),
      update(3, 'plugin', 'a/a.php'),
    ];
    const [phase] = batchPlan(actions, 200);
    const calls = phase!.calls as UpdateCall[];
    expect(calls.map((c) => c.siteIds)).toEqual([[1, 2], [3]]);
    expect(calls[1]!.items).toEqual([{ kind: 'plugin', slug: 'a/a.php' }]);
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
    expect(minimumCalls(planOf(actions), 2)).toBe(4);
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
            const lookAlike = new Set(call.items.map((i) => i.kind).filter((kind) => kind !== 'plugin'));
            expect(lookAlike.size).toBeLessThanOrEqual(1);
            const planned = new Set(
              call.actions.map((i) => `${actions[i]!.site_id}|${actions[i]!.kind}|${actions[i]!.slug}`),
            );
            for (const site of call.siteIds)
              for (const item of call.items)
                expect(planned.has(`${site}|${item.kind}|${item.slug}`)).toBe(true);
          }
          expect(phases.reduce((n, p) => n + p.calls.length, 0)).toBe(
            minimumCalls(planOf(actions), threshold),
          );
        },
      ),
    );
  });
});

describe('batchPlan and look-alike slugs', () => {
  it('never puts core, themes and translations in one call; plugins ride with the first', () => {
    const actions = [
      update(1, 'theme', 'astra'),
      update(1, 'translation', 'astra', { from: '1', to: '' }),
      update(1, 'plugin', 'a/a.php'),
      update(1, 'core', 'wordpress'),
    ];
    const calls = batchPlan(actions, 200)[0]!.calls as UpdateCall[];
    expect(calls.map((c) => c.items.map((i) => i.kind))).toEqual([
      ['core', 'plugin'],
      ['theme'],
      ['translation'],
    ]);
    expect(calls.map((c) => c.actions)).toEqual([[2, 3], [0], [1]]);
    expect(minimumCalls(planOf(actions), 200)).toBe(3);
  });
});
