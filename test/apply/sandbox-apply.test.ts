import { describe, expect, it } from 'vitest';
import { checkLiveUnchanged } from '../../src/apply/guard.js';
import { applyPlan, batchPlan } from '../../src/apply/index.js';
import type { SandboxProfile } from '../../src/sandbox/index.js';
import { closedAfterEach } from '../helpers/lifecycle.js';
import { changeTouchedSite, maxRunsPerUpdate, startWorld } from './world.js';

const openWorld = closedAfterEach(startWorld);

describe.each(['spec', 'compat-6.1', 'next'] as SandboxProfile[])(
  'applyPlan against the sandbox (%s)',
  (profile) => {
    it('applies a plan with the minimum calls, verifies it, and a new plan is empty', async () => {
      const world = await openWorld({ profile });
      const { plan, live } = await world.plan();
      expect(plan.actions.length).toBeGreaterThan(0);
      const client = world.client();
      const result = await applyPlan(plan, { client, live, settings: { safeMode: true, concurrency: 3 } });
      expect(result.outcomes.filter((o) => o.status !== 'done')).toEqual([]);
      const phases = batchPlan(plan.actions, live.capabilities.queueThreshold, live.pending);
      expect(result.calls).toBe(phases.reduce((n, p) => n + p.calls.length, 0));
      const stats = await world.stats();
      expect(maxRunsPerUpdate(stats)).toBe(1);
      const after = await world.plan();
      expect(after.plan.actions).toEqual([]);
    });

    it('a saved plan whose touched sites changed is refused with nothing sent', async () => {
      const world = await openWorld({ profile });
      const { plan } = await world.plan();
      await changeTouchedSite(world);
      await expect(checkLiveUnchanged(plan, world.client())).rejects.toMatchObject({
        code: 'PREVIEW_REQUIRED',
      });
      const stats = await world.stats();
      expect(Object.keys(stats.abilities).filter((name) => !/list|get|catalog/.test(name))).toEqual([]);
      expect(stats.updates_run).toEqual([]);
    });
  },
);
