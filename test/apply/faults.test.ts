import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/apply/index.js';
import type { FaultRule } from '../../src/sandbox/index.js';
import type { ApplyResult, LiveState } from '../../src/types.js';
import { closedAfterEach } from '../helpers/lifecycle.js';
import { maxRunsPerUpdate, startWorld } from './world.js';

const openWorld = closedAfterEach(startWorld);

/** Every outcome agrees with what the dashboard now holds: the report never lies. */
function expectTruthful(result: ApplyResult, live: LiveState): void {
  for (const outcome of result.outcomes) {
    const { action } = outcome;
    if (action.op !== 'update' || (outcome.status !== 'done' && outcome.status !== 'failed')) continue;
    const pending = live.pending.some(
      (p) =>
        p.siteId === action.site_id &&
        p.kind === action.kind &&
        p.slug === action.slug &&
        p.from === action.from,
    );
    expect({ item: `${action.site_id} ${action.slug}`, pending }).toEqual({
      item: `${action.site_id} ${action.slug}`,
      pending: outcome.status === 'failed',
    });
  }
}

const failedWith = (code: string) => (r: ApplyResult) =>
  r.outcomes.some((o) => o.status === 'failed' && o.code === code);
/** A call failed on the wire but the re-read showed it had taken effect: reported done. */
const confirmedAfterFailure = (r: ApplyResult) =>
  r.outcomes.some((o) => o.status === 'done' && /took effect although/.test(o.message ?? ''));

// Each case states what the first run must show, so a fault that never fired fails the test.
const FAULTS: Array<[string, FaultRule[], (first: ApplyResult) => boolean]> = [
  [
    '5xx before the handler',
    [{ kind: 'status', status: 503, ability: 'run-updates-v1', times: 1 }],
    failedWith('HTTP_ERROR'),
  ],
  [
    '5xx after the handler ran',
    [{ kind: 'status', status: 502, ability: 'run-updates-v1', times: 1, after: true }],
    confirmedAfterFailure,
  ],
  [
    '429 with Retry-After on writes',
    [{ kind: 'rate-limit', retryAfter: 0, method: 'POST', rate: 0.5 }],
    failedWith('RATE_LIMITED'),
  ],
  [
    'connection resets after the handler ran',
    [{ kind: 'reset', ability: 'run-updates-v1', times: 1, after: true }],
    confirmedAfterFailure,
  ],
  [
    'connection resets on idempotent ignores (retried)',
    [{ kind: 'reset', ability: 'ignore-site-plugins-v1', times: 2 }],
    (r) => r.outcomes.every((o) => o.status === 'done'),
  ],
];

describe('apply under faults (seed 7)', () => {
  it.each(FAULTS)(
    '%s: outcomes are truthful, a re-run completes, no update runs twice',
    async (_name, faults, expectFirst) => {
      const world = await openWorld({ profile: 'compat-6.1', seed: 7, faults });
      const first = await world.plan();
      const result = await applyPlan(first.plan, {
        client: world.client(),
        live: first.live,
        settings: { safeMode: true, concurrency: 2 },
      });
      expect(result.outcomes).toHaveLength(first.plan.actions.length);
      expect(expectFirst(result)).toBe(true);
      await world.control('PUT', 'faults', []);
      expectTruthful(result, await world.client().readLive());

      const second = await world.plan();
      const rerun = await applyPlan(second.plan, {
        client: world.client(),
        live: second.live,
        settings: { safeMode: true, concurrency: 2 },
      });
      expect(rerun.outcomes.filter((o) => o.status !== 'done')).toEqual([]);
      expect((await world.plan()).plan.actions).toEqual([]);
      expect(maxRunsPerUpdate(await world.stats())).toBe(1);
    },
  );
});
