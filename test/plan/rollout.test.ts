import { describe, expect, it } from 'vitest';
import { createPlan } from '../../src/plan/create.js';
import { healthChecksNeeded } from '../../src/plan/rollout-checks.js';
import {
  observeVersions,
  parseRolloutState,
  recordWaves,
  serialiseRolloutState,
} from '../../src/plan/rollout-state.js';
import type { PlanRollout, RolloutState } from '../../src/types.js';
import { svcErrorSync } from '../helpers/errors.js';
import {
  allSites,
  desiredState,
  ignoreRule,
  liveState,
  NOW,
  PLAN_OPTIONS,
  policy,
  site,
  siteIds,
  update,
  wave,
} from './builders.js';

const hoursAgo = (n: number) => new Date(NOW.getTime() - n * 3_600_000).toISOString();
const live = liveState({
  sites: [site(1), site(2), site(3)],
  pending: [1, 2, 3].map((id) => update(id, 'plugin', 'akismet/akismet.php', '5.3.6', '5.3.7')),
});
const gated = desiredState({
  policies: [policy({ name: 'p', selection: allSites() })],
  waves: [
    wave('canary', siteIds(1)),
    { ...wave('early', siteIds(2)), after: { wave: 'canary', healthyFor: { text: '24h', ms: 86_400_000 } } },
  ],
});
const rollout = (state: Partial<RolloutState>, health: PlanRollout['health'] = {}): PlanRollout => ({
  state: { first_seen: {}, waves: {}, ...state },
  health,
});
const updatedSites = (plan: ReturnType<typeof createPlan>) => plan.actions.map((a) => a.site_id);

describe('rollout gates in createPlan', () => {
  it('a wave that starts after another waits while that wave has updates to run, and everything after it waits too', () => {
    const plan = createPlan(gated, live, { ...PLAN_OPTIONS, rollout: rollout({}) });
    expect(updatedSites(plan)).toEqual([1]);
    const waiting = plan.notes.filter((n) => n.kind === 'waiting').map((n) => [n.site_ids, n.message]);
    expect(waiting).toEqual([
      [[3], expect.stringContaining('wave "(remaining)" waits for wave "early", which starts after')],
      [
        [2],
        expect.stringContaining(
          'wave "early" starts after wave "canary" has been healthy for 24h; wave "canary" still has updates to run',
        ),
      ],
    ]);
    // Waiting sites get no fingerprint: nothing of theirs is applied.
    expect(Object.keys(plan.fingerprints)).toEqual(['1']);
  });

  it('keeps ignores in site order and fingerprints every touched site when only later waves may wait', () => {
    const desired = desiredState({
      policies: gated.policies,
      waves: [
        wave('canary', siteIds(2)),
        {
          ...wave('early', siteIds(1)),
          after: { wave: 'canary', healthyFor: { text: '24h', ms: 86_400_000 } },
        },
      ],
      ignores: [ignoreRule({ selection: allSites(), plugins: ['jetpack/jetpack.php'] })],
    });
    const plan = createPlan(desired, live, { ...PLAN_OPTIONS, rollout: rollout({}) });
    // Site 2's wave (canary) can never wait and is dealt as judged; sites 1 and 3 wait for the verdict.
    expect(plan.actions.map((a) => [a.op, a.site_id])).toEqual([
      ['ignore', 1],
      ['ignore', 2],
      ['ignore', 3],
      ['update', 2],
    ]);
    expect(Object.keys(plan.fingerprints)).toEqual(['1', '2', '3']);
    // A waiting site's fingerprint covers its ignore only, as if it had no update to run.
    const ignoreOnly = createPlan(desiredState({ ...desired, policies: [] }), live, {
      ...PLAN_OPTIONS,
      rollout: rollout({}),
    });
    expect(plan.fingerprints['1']).toBe(ignoreOnly.fingerprints['1']);
    expect(plan.fingerprints['2']).not.toBe(ignoreOnly.fingerprints['2']);
  });

  it('opens once the earlier wave is done, old enough and checked healthy; a failed check keeps it shut', () => {
    const doneLive = liveState({ ...live, pending: live.pending.filter((u) => u.siteId !== 1) });
    const record = { canary: { updated_at: hoursAgo(25), unhealthy: [] } };
    const open = createPlan(gated, doneLive, {
      ...PLAN_OPTIONS,
      rollout: rollout({ waves: record }, { canary: [] }),
    });
    expect(updatedSites(open)).toEqual([2, 3]);
    const unchecked = createPlan(gated, doneLive, { ...PLAN_OPTIONS, rollout: rollout({ waves: record }) });
    expect(updatedSites(unchecked)).toEqual([]);
    expect(unchecked.notes[0]?.message).toContain('its health was not checked at plan time');
    const sick = [{ site_id: 1, site_url: 'https://s1/', problem: 'HTTP 500' }];
    const failing = createPlan(gated, doneLive, {
      ...PLAN_OPTIONS,
      rollout: rollout({ waves: record }, { canary: sick }),
    });
    expect(updatedSites(failing)).toEqual([]);
    const young = { canary: { updated_at: hoursAgo(23), unhealthy: [] } };
    expect(
      updatedSites(
        createPlan(gated, doneLive, { ...PLAN_OPTIONS, rollout: rollout({ waves: young }, { canary: [] }) }),
      ),
    ).toEqual([]);
  });

  it('a wave whose last apply left unhealthy sites holds back every later wave until a re-check passes or an override', () => {
    const desired = desiredState({
      policies: [policy({ name: 'p', selection: allSites() })],
      waves: [wave('canary', siteIds(1)), wave('rest', allSites())],
    });
    const sick = [{ site_id: 1, site_url: 'https://s1/', problem: 'offline', after: ['plugin a 1 → 2'] }];
    const state = { waves: { canary: { updated_at: hoursAgo(1), unhealthy: sick } } };
    const held = createPlan(desired, live, { ...PLAN_OPTIONS, rollout: rollout(state, { canary: sick }) });
    expect(updatedSites(held)).toEqual([1]);
    expect(held.notes.find((n) => n.site_ids?.includes(2))?.message).toContain(
      'which left 1 unhealthy site(s) (https://s1/: offline after plugin a 1 → 2)',
    );
    const healed = createPlan(desired, live, { ...PLAN_OPTIONS, rollout: rollout(state, { canary: [] }) });
    expect(updatedSites(healed)).toEqual([1, 2, 3]);
    const overridden = createPlan(desired, live, {
      ...PLAN_OPTIONS,
      rollout: { ...rollout(state, { canary: sick }), overrideHealth: true },
    });
    expect(updatedSites(overridden)).toEqual([1, 2, 3]);
  });

  it('the same inputs give the same plan id (no clock inside)', () => {
    const options = {
      ...PLAN_OPTIONS,
      rollout: rollout({ first_seen: { 'plugin akismet/akismet.php 5.3.7': hoursAgo(1) } }),
    };
    const soaking = desiredState({
      policies: [
        policy({ name: 'p', selection: allSites(), minReleaseAge: { text: '3d', ms: 3 * 86_400_000 } }),
      ],
    });
    expect(createPlan(soaking, live, options).id).toBe(createPlan(soaking, live, options).id);
    expect(createPlan(soaking, live, options).actions).toEqual([]);
  });
});

describe('the rollout state file', () => {
  it('observes pending versions, keeps first sightings, drops versions no site has pending', () => {
    const before: RolloutState = {
      first_seen: {
        'plugin akismet/akismet.php 5.3.7': hoursAgo(5),
        'plugin gone/gone.php 2.0': hoursAgo(9),
      },
      waves: {},
    };
    const after = observeVersions(
      before,
      { pending: [...live.pending, update(1, 'theme', 'astra', '1.0', '1.1')] },
      NOW,
    );
    expect(after.first_seen).toEqual({
      'plugin akismet/akismet.php 5.3.7': hoursAgo(5),
      'theme astra 1.1': NOW.toISOString(),
    });
    // A read of some sites only (--target) drops nothing.
    const partial = observeVersions(before, { pending: [] }, NOW, false);
    expect(partial.first_seen).toEqual(before.first_seen);
  });

  it('round-trips, sorted, and refuses a file it cannot read with the path named', () => {
    const state = recordWaves(
      { first_seen: { b: hoursAgo(1), a: hoursAgo(2) }, waves: {} },
      [{ wave: 'canary', unhealthy: [] }],
      NOW,
    );
    const text = serialiseRolloutState(state);
    expect(text.indexOf('"a"')).toBeLessThan(text.indexOf('"b"'));
    expect(parseRolloutState(text, 'x.rollout.json', NOW)).toEqual(state);
    const error = svcErrorSync(() =>
      parseRolloutState('{"format": 1, "first_seen": {"a": "soon"}}', 'x.rollout.json', NOW),
    );
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toBe('x.rollout.json:1: rollout state: first_seen "a": not a time');
    expect(error.hint).not.toMatch(/delete|remove/);
  });

  it('asks for health checks of a gating wave once its time has passed, and of sites left unhealthy', () => {
    const waves = { canary: { updated_at: hoursAgo(25), unhealthy: [] } };
    expect(healthChecksNeeded(gated, live, { first_seen: {}, waves }, NOW)).toEqual([
      { wave: 'canary', siteIds: [1] },
    ]);
    const young = {
      canary: { updated_at: hoursAgo(2), unhealthy: [{ site_id: 1, site_url: 'u', problem: 'p' }] },
    };
    expect(healthChecksNeeded(gated, live, { first_seen: {}, waves: young }, NOW)).toEqual([
      { wave: 'canary', siteIds: [1] },
    ]);
    expect(
      healthChecksNeeded(
        gated,
        live,
        { first_seen: {}, waves: { canary: { updated_at: hoursAgo(2), unhealthy: [] } } },
        NOW,
      ),
    ).toEqual([]);
  });
});
