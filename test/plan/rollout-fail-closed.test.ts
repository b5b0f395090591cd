import { describe, expect, it } from 'vitest';
import { createPlan } from '../../src/plan/create.js';
import { healthChecksNeeded, wavesDone } from '../../src/plan/rollout-checks.js';
import {
  parseRolloutState,
  recordDoneWaves,
  recordHealthChecks,
  recordWaves,
  serialiseRolloutState,
} from '../../src/plan/rollout-state.js';
import type { PlanRollout, RolloutState } from '../../src/types.js';
import { svcErrorSync } from '../helpers/errors.js';
import {
  allSites,
  desiredState,
  liveState,
  NOW,
  PLAN_OPTIONS,
  policy,
  site,
  siteIds,
  update,
  wave,
} from './builders.js';

/** The rollout state fails closed: whatever is unknown about it delays a gate, never opens one. */
const at = (hours: number) => new Date(NOW.getTime() + hours * 3_600_000).toISOString();
const HEADER = '{"format":2}';
const parse = (text: string) => parseRolloutState(text, 'svc-gitops.rollout.json', NOW);
const day = { text: '24h', ms: 86_400_000 };
const gated = desiredState({
  policies: [policy({ name: 'p', selection: allSites() })],
  waves: [
    wave('canary', siteIds(1)),
    { ...wave('early', siteIds(2)), after: { wave: 'canary', healthyFor: day } },
  ],
});
// Canary (site 1) is done: only early's site 2 and the remaining site 3 have the update pending.
const doneLive = liveState({
  sites: [site(1), site(2), site(3)],
  pending: [2, 3].map((id) => update(id, 'plugin', 'akismet/akismet.php', '5.3.6', '5.3.7')),
});
const rollout = (state: Partial<RolloutState>, health: PlanRollout['health'] = {}): PlanRollout => ({
  state: { first_seen: {}, waves: {}, ...state },
  health,
});
const updated = (plan: ReturnType<typeof createPlan>) => plan.actions.map((a) => a.site_id);

describe('the rollout state file refuses what it cannot trust, with file:line', () => {
  it('refuses conflict markers, unknown keys and first-seen times in the future', () => {
    const conflict = svcErrorSync(() =>
      parse(`${HEADER}\n<<<<<<< HEAD\n{"first_seen":"plugin a 1","at":"${at(-1)}"}\n=======\n`),
    );
    expect(conflict.message).toBe(
      'svc-gitops.rollout.json:2: rollout state: an unresolved Git merge conflict',
    );
    expect(conflict.details).toMatchObject({ reason: 'conflict', line: 2 });
    expect(conflict.hint).toContain('keep the lines of both sides');
    expect(conflict.hint).not.toMatch(/delete|remove it/);

    const unknown = svcErrorSync(() =>
      parse(`${HEADER}\n{"wave":"canary","updated_at":"${at(-1)}","unhealthy":[],"healthy":true}\n`),
    );
    expect(unknown.message).toBe('svc-gitops.rollout.json:2: rollout state: unknown key "healthy"');

    const future = svcErrorSync(() =>
      parse(`${HEADER}\n{"first_seen":"plugin a 1","at":"2030-01-01T00:00:00Z"}\n`),
    );
    expect(future.message).toBe(
      `svc-gitops.rollout.json:2: rollout state: first_seen "plugin a 1" is 2030-01-01T00:00:00Z, after now (${NOW.toISOString()})`,
    );
    expect(future.details).toMatchObject({ reason: 'future-time' });
    // Format 1 (earlier versions) is read, with the line of the bad key.
    const legacy = svcErrorSync(() =>
      parse('{\n  "format": 1,\n  "first_seen": {\n    "plugin a 1": "2030-01-01T00:00:00Z"\n  }\n}\n'),
    );
    expect(legacy.message).toMatch(
      /^svc-gitops\.rollout\.json:4: rollout state: first_seen "plugin a 1" is 2030/,
    );
  });

  it('reads a record found twice (a union merge) on the safe side: the later time, every unhealthy site', () => {
    const sick = { site_id: 4, site_url: 'https://s4/', problem: 'offline' };
    const state = parse(
      [
        HEADER,
        `{"first_seen":"plugin a 1","at":"${at(-5)}"}`,
        `{"wave":"canary","updated_at":"${at(-30)}","unhealthy":[]}`,
        `{"first_seen":"plugin a 1","at":"${at(-2)}"}`,
        `{"wave":"canary","updated_at":"${at(-26)}","unhealthy_at":"${at(-3)}","unhealthy":[${JSON.stringify(sick)}]}`,
      ].join('\n'),
    );
    expect(state).toEqual({
      first_seen: { 'plugin a 1': at(-2) },
      waves: { canary: { updated_at: at(-26), unhealthy_at: at(-3), unhealthy: [sick] } },
    });
    // Written back: one record per line, sorted, and read again unchanged.
    const text = serialiseRolloutState(state);
    expect(text.split('\n')).toEqual([
      HEADER,
      `{"first_seen":"plugin a 1","at":"${at(-2)}"}`,
      `{"wave":"canary","updated_at":"${at(-26)}","unhealthy_at":"${at(-3)}","unhealthy":[${JSON.stringify(sick)}]}`,
      '',
    ]);
    expect(parse(text)).toEqual(state);
  });
});

describe('wave gates without a record wait, and restart after an unhealthy check', () => {
  it('an earlier wave done with no record: `healthy_for` counts from now, and the plan says so', () => {
    const lost = createPlan(gated, doneLive, { ...PLAN_OPTIONS, rollout: rollout({}, { canary: [] }) });
    expect(updated(lost)).toEqual([]);
    expect(lost.notes.find((n) => n.site_ids?.includes(2))?.message).toContain(
      `the rollout state has no record of when it last ran, so its \`healthy_for\` counts from now, ${NOW.toISOString()}, so not before ${at(24)}`,
    );
    // The plan shows canary done: recorded as first seen done now.
    const done = wavesDone(gated, doneLive, lost, true);
    expect(done).toEqual(['canary']);
    expect(wavesDone(gated, doneLive, lost, false)).toEqual([]);
    const seen = recordDoneWaves(rollout({}).state, done, NOW);
    expect(seen.waves.canary).toEqual({ done_seen_at: NOW.toISOString(), unhealthy: [] });
    // A later sighting keeps the first one.
    expect(recordDoneWaves(seen, done, new Date(at(5)))).toBe(seen);
    const later = {
      ...PLAN_OPTIONS,
      now: new Date(at(23)),
      rollout: { state: seen, health: { canary: [] } },
    };
    expect(createPlan(gated, doneLive, later).notes[0]?.message).toContain(
      `svc-gitops first saw it done ${NOW.toISOString()} (23h ago)`,
    );
    const open = { ...later, now: new Date(at(24)) };
    expect(updated(createPlan(gated, doneLive, open))).toEqual([2, 3]);
  });

  it('with health rules, a wave with no record is checked at plan time before later waves go', () => {
    const unwatched = desiredState({
      ...gated,
      waves: [wave('canary', siteIds(1)), wave('early', siteIds(2))],
    });
    const plain = { ...unwatched, health: { status: ['2xx'], maxUnhealthy: 0 } };
    expect(healthChecksNeeded(plain, doneLive, { first_seen: {}, waves: {} }, NOW)).toEqual([
      { wave: 'canary', siteIds: [1] },
      { wave: 'early', siteIds: [2] },
    ]);
    const recorded = recordWaves({ first_seen: {}, waves: {} }, [{ wave: 'canary', unhealthy: [] }], NOW);
    expect(healthChecksNeeded(plain, doneLive, recorded, NOW)).toEqual([{ wave: 'early', siteIds: [2] }]);
    // Without health rules nothing is checked: nothing could be judged.
    expect(healthChecksNeeded(unwatched, doneLive, { first_seen: {}, waves: {} }, NOW)).toEqual([]);
  });

  it('an unhealthy plan-time check is recorded and restarts `healthy_for`', () => {
    const applied = recordWaves(
      { first_seen: {}, waves: {} },
      [{ wave: 'canary', unhealthy: [] }],
      new Date(at(-25)),
    );
    const sick = [{ site_id: 1, site_url: 'https://s1/', problem: 'HTTP 500' }];
    const broken = recordHealthChecks(applied, { canary: sick }, NOW);
    expect(broken.waves.canary).toEqual({
      updated_at: at(-25),
      unhealthy_at: NOW.toISOString(),
      unhealthy_since: NOW.toISOString(),
      unhealthy: sick,
    });
    // Healed half an hour later: the check is clean, yet early waits 24h from the unhealthy sighting.
    const healed = recordHealthChecks(broken, { canary: [] }, new Date(at(0.5)));
    expect(healed.waves.canary).toEqual({
      updated_at: at(-25),
      unhealthy_at: NOW.toISOString(),
      unhealthy: [],
    });
    const options = { ...PLAN_OPTIONS, now: new Date(at(0.5)), rollout: rollout(healed, { canary: [] }) };
    const plan = createPlan(gated, doneLive, options);
    expect(updated(plan)).toEqual([]);
    expect(plan.notes[0]?.message).toContain(
      `a health check found it unhealthy ${NOW.toISOString()} (30m ago), which restarts the count, so not before ${at(24)}`,
    );
    const day2 = { ...options, now: new Date(at(24)), rollout: rollout(healed, { canary: [] }) };
    expect(updated(createPlan(gated, doneLive, day2))).toEqual([2, 3]);
  });
});
