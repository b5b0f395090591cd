import { describe, expect, it } from 'vitest';
import { type ApplyEvent, applyPlan, batchPlan } from '../../src/apply/index.js';
import { closedAfterEach } from '../helpers/lifecycle.js';
import { run } from './cli-helpers.js';
import { hookedFs } from './hooked-fs.js';
import { maxRunsPerUpdate, startWorld, type World } from './world.js';

/**
 * Ctrl-C mid-apply: in-flight calls finish, nothing new starts, and the run exits 130 at once.
 * The confirming re-read is not made (under a rate limit it used to wait for the limiter's
 * window, ~80 s at SVC_RATE_LIMIT=4): what the calls reported done is shown unconfirmed, never
 * as confirmed, and the next run (`apply --resume`) re-reads and checks it.
 */

const openWorld = closedAfterEach(startWorld);

/** Read abilities the sandbox answered: a re-read after the calls would add to them. */
async function readsOf(world: World): Promise<number> {
  const { abilities } = await world.stats();
  return Object.entries(abilities)
    .filter(([name]) => /list-/.test(name))
    .reduce((n, [, count]) => n + count, 0);
}

describe('apply interrupted: no confirming re-read behind the rate limiter', () => {
  it('applyPlan returns at once with the calls’ done outcomes unverified, and reads nothing more', async () => {
    const world = await openWorld();
    const { plan, live } = await world.plan();
    const readsBefore = await readsOf(world);
    // Three calls a minute: the catalogue read and two calls fill the window, so a re-read
    // after them would wait most of a minute for the limiter.
    const client = world.client({ rateLimit: 3 });
    const controller = new AbortController();
    const events: ApplyEvent[] = [];
    let callsDone = 0;
    const result = await applyPlan(plan, {
      client,
      live,
      settings: { safeMode: true, concurrency: 1 },
      signal: controller.signal,
      onEvent: (event) => {
        events.push(event);
        if (event.type === 'call-done' && ++callsDone === 2) controller.abort(new Error('SIGINT'));
      },
    });
    expect(result.interrupted).toBe(true);
    expect(result.calls).toBe(2);
    expect(await readsOf(world)).toBe(readsBefore);
    expect(events.some((event) => event.type === 'verify')).toBe(false);
    const done = result.outcomes.filter((o) => o.status === 'done');
    expect(done.length).toBeGreaterThan(0);
    for (const outcome of done) {
      expect(outcome.unverified).toBe(true);
      expect(outcome.message).toMatch(/not verified .*interrupted/);
    }
    expect(result.outcomes.filter((o) => o.status === 'skipped').map((o) => o.code)).toEqual(
      Array(plan.actions.length - done.length).fill('INTERRUPTED'),
    );
  });

  it('Ctrl-C while the re-read waits for the rate limiter ends it at once: nothing is claimed confirmed', async () => {
    const world = await openWorld();
    const { plan, live } = await world.plan();
    const calls = batchPlan(plan.actions, live.capabilities.queueThreshold, live.pending).reduce(
      (n, phase) => n + phase.calls.length,
      0,
    );
    // The catalogue read and every call fill the window: the re-read has to wait for it.
    const client = world.client({ rateLimit: 1 + calls });
    const controller = new AbortController();
    const result = await applyPlan(plan, {
      client,
      live,
      settings: { safeMode: true, concurrency: 2 },
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'verify') setTimeout(() => controller.abort(new Error('SIGINT')), 200);
      },
    });
    expect(result.calls).toBe(calls);
    expect(result.interrupted).toBe(true);
    expect(result.outcomes.filter((o) => o.status === 'done' && !o.unverified)).toEqual([]);
    expect(result.outcomes.filter((o) => o.status === 'done')).toHaveLength(plan.actions.length);
  });

  it('the CLI exits 130 without waiting, says the outcomes are unconfirmed, and --resume checks them', async () => {
    const world = await openWorld();
    const controller = new AbortController();
    const fs = hookedFs(world.fs, (n) => {
      if (n === 2) controller.abort(new Error('SIGINT'));
    });
    // Planning reads 5 times (catalogue, three listings, the REST site records for the flags) and
    // two calls go out: a limit of 7 a minute is full when they end.
    const interrupted = await run(world, ['apply', '--auto-approve'], {
      signal: controller.signal,
      fs,
      env: { SVC_CONCURRENCY: '1', SVC_RATE_LIMIT: '7' },
    });
    expect(interrupted.code, interrupted.stderr).toBe(130);
    expect(interrupted.stdout).toMatch(/^Apply interrupted: (\d+) done \(\1 not verified\)/m);
    expect(interrupted.stdout).toContain(
      'Not confirmed: the apply was interrupted before the re-read that confirms its changes',
    );
    expect(interrupted.stdout.trimEnd().split('\n').at(-1)).toBe(
      'Run `svc-gitops apply --resume` to finish the remaining actions.',
    );
    // One read of the live state (the plan's), none after the calls.
    expect((await world.stats()).requests['GET /sites']).toBe(1);

    const resumed = await run(world, ['apply', '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((await world.plan()).plan.actions).toEqual([]);
    expect(maxRunsPerUpdate(await world.stats())).toBe(1);
  });
});
