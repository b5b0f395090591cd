import { describe, expect, it } from 'vitest';
import { createPlan } from '../../src/plan/create.js';
import {
  adoptQuarantines,
  quarantinesOfApply,
  recordQuarantines,
} from '../../src/plan/rollout-quarantine.js';
import { parseRolloutState, serialiseRolloutState } from '../../src/plan/rollout-state.js';
import type { Action, ApplyResult, RolloutState } from '../../src/types.js';
import { svcErrorSync } from '../helpers/errors.js';
import {
  allSites,
  desiredState,
  hold,
  liveState,
  NOW,
  PLAN_OPTIONS,
  policy,
  site,
  update,
} from './builders.js';

/** Quarantine records: union-merge safe, fail closed, and held by the planner on every site. */
const at = (hours: number) => new Date(NOW.getTime() + hours * 3_600_000).toISOString();
const HEADER = '{"format":2}';
const KEY = 'plugin akismet/akismet.php 5.3.7';
const parse = (text: string) => parseRolloutState(text, 'svc-gitops.rollout.json', NOW);
const siteOf = (id: number, problem = 'offline (HTTP 500)') => ({
  site_id: id,
  site_url: `https://site-${id}.test/`,
  problem,
});
const line = (record: Record<string, unknown>) => JSON.stringify({ quarantine: KEY, ...record });

describe('quarantine records in the rollout state file', () => {
  it('round-trips, and a version recorded on two branches reads on the safe side', () => {
    const state: RolloutState = {
      first_seen: {},
      waves: {},
      quarantines: { [KEY]: { at: at(-2), wave: 'canary', sites: [siteOf(2)] } },
    };
    expect(parse(serialiseRolloutState(state))).toEqual(state);
    // A union merge keeps both lines: the earlier time, every site, adopted only if both were.
    const merged = parse(
      [
        HEADER,
        line({ at: at(-1), adopted_at: at(-1), wave: 'canary', sites: [siteOf(2)] }),
        line({ at: at(-3), wave: 'canary', sites: [siteOf(1, 'HTTP 503')] }),
      ].join('\n'),
    );
    expect(merged.quarantines?.[KEY]).toEqual({
      at: at(-3),
      wave: 'canary',
      sites: [siteOf(1, 'HTTP 503'), siteOf(2)],
    });
  });

  it('refuses a record it cannot trust, with file:line', () => {
    const unknown = svcErrorSync(() => parse(`${HEADER}\n${line({ at: at(-1), sites: [], until: 'x' })}`));
    expect(unknown.message).toBe('svc-gitops.rollout.json:2: rollout state: unknown key "until"');
    const future = svcErrorSync(() => parse(`${HEADER}\n${line({ at: at(1), sites: [] })}`));
    expect(future.details).toMatchObject({ reason: 'future-time', line: 2 });
    const sites = svcErrorSync(() => parse(`${HEADER}\n${line({ at: at(-1), sites: 'all' })}`));
    expect(sites.details).toMatchObject({ reason: 'bad-value', line: 2 });
  });
});

describe('quarantines from an apply, and their lifecycle', () => {
  const action = (id: number, slug: string, wave = 'canary'): Action => ({
    op: 'update',
    site_id: id,
    site_url: `https://site-${id}.test/`,
    kind: 'plugin',
    slug,
    name: slug,
    from: '1.0',
    to: slug === 'akismet/akismet.php' ? '5.3.7' : '2.0',
    risk: 'medium',
    reason: 'r',
    wave,
  });
  const result = (stopped: boolean): Pick<ApplyResult, 'health' | 'outcomes'> => ({
    outcomes: [
      { action: action(1, 'akismet/akismet.php'), status: 'done' },
      { action: action(2, 'akismet/akismet.php'), status: 'done' },
      { action: action(2, 'hello/hello.php'), status: 'done' },
      { action: action(3, 'akismet/akismet.php', 'rest'), status: 'skipped', code: 'UNHEALTHY' },
    ],
    health: [{ wave: 'canary', checked: 2, unhealthy: [siteOf(2)], max_unhealthy: 0, stopped }],
  });

  it('blames every update a halting wave ran on each unhealthy site, and nothing else', () => {
    const found = quarantinesOfApply(result(true), NOW);
    expect(found.map((q) => q.key)).toEqual([KEY, 'plugin hello/hello.php 2.0']);
    expect(found[0]!.record).toEqual({ at: NOW.toISOString(), wave: 'canary', sites: [siteOf(2)] });
    // Unhealthy within the allowance: the rollout went on, nothing is quarantined.
    expect(quarantinesOfApply(result(false), NOW)).toEqual([]);
  });

  it('is held until adopted, then the desired state decides; an unadopted record never drops', () => {
    const recorded = recordQuarantines({ first_seen: {}, waves: {} }, quarantinesOfApply(result(true), NOW));
    const plain = desiredState({ policies: [policy({ name: 'p', selection: allSites() })] });
    const live = liveState({
      sites: [site(3), site(4)],
      pending: [3, 4].map((id) => update(id, 'plugin', 'akismet/akismet.php', '5.3.6', '5.3.7')),
    });
    const plan = createPlan(plain, live, { ...PLAN_OPTIONS, rollout: { state: recorded, health: {} } });
    expect(plan.actions).toEqual([]);
    expect(plan.notes.map((note) => [note.kind, note.site_ids])).toEqual([['held', [3, 4]]]);
    expect(adoptQuarantines(recorded, plain, NOW)).toEqual(recorded);

    const holding = desiredState({
      ...plain,
      holds: [{ ...hold({ kind: 'plugin', slug: 'akismet/*' }), selection: allSites(), versions: ['5.3.7'] }],
    });
    const adopted = adoptQuarantines(recorded, holding, NOW);
    expect(adopted.quarantines?.[KEY]?.adopted_at).toBe(NOW.toISOString());
    expect(adopted.quarantines?.['plugin hello/hello.php 2.0']?.adopted_at).toBeUndefined();
    const released = adoptQuarantines(adopted, plain, NOW);
    expect(Object.keys(released.quarantines ?? {})).toEqual(['plugin hello/hello.php 2.0']);
    const unheld = createPlan(plain, live, { ...PLAN_OPTIONS, rollout: { state: released, health: {} } });
    expect(unheld.actions.map((a) => a.site_id)).toEqual([3, 4]);
  });

  it('holds only the quarantined item, also when a version holds a space', () => {
    const record = { at: at(0), sites: [siteOf(3)] };
    const state: RolloutState = {
      first_seen: {},
      waves: {},
      quarantines: { 'plugin akismet/akismet.php 5.3 beta': record, 'theme other 1.0': record },
    };
    const desired = desiredState({ policies: [policy({ name: 'p', selection: allSites() })] });
    const live = liveState({
      sites: [site(3), site(4)],
      pending: [
        update(3, 'plugin', 'akismet/akismet.php', '5.2', '5.3 beta'),
        update(4, 'plugin', 'hello/hello.php', '1.0', '1.1'),
      ],
    });
    const plan = createPlan(desired, live, { ...PLAN_OPTIONS, rollout: { state, health: {} } });
    expect(plan.actions.map((a) => [a.site_id, a.slug])).toEqual([[4, 'hello/hello.php']]);
    expect(plan.notes.map((note) => [note.kind, note.site_ids])).toEqual([['held', [3]]]);
  });
});
