import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../helpers/lifecycle.js';
import { reId, run, savePlan, writesSent } from './cli-helpers.js';
import { startWorld } from './world.js';

const openWorld = closedAfterEach(startWorld);

/**
 * `apply --reviewed` runs what a merged pull request's plan allowed: that plan must be exactly
 * the one reviewed (its id matches its content) and made for this dashboard, or nothing is sent.
 */
describe('apply --reviewed refuses a reviewed plan that is not the one reviewed for this dashboard', () => {
  it('an action edited after planning (the id no longer matches)', async () => {
    const world = await openWorld();
    const { plan } = await world.plan();
    const edited = {
      ...plan,
      actions: plan.actions.map((a, i) => (i === 0 ? { ...a, reason: 'edited' } : a)),
    };
    savePlan(world, edited, '/work/reviewed.json');
    const result = await run(world, ['apply', '--reviewed', 'reviewed.json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[PREVIEW_REQUIRED]');
    expect(result.stderr).toContain('does not match its id');
    expect(await writesSent(world)).toBe(0);
  });

  it('a consistent plan made for another dashboard', async () => {
    const world = await openWorld();
    const { plan } = await world.plan();
    savePlan(
      world,
      reId({ ...plan, dashboard: { url: 'https://other.example.test/' } }),
      '/work/reviewed.json',
    );
    const result = await run(world, ['apply', '--reviewed', 'reviewed.json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('was made for https://other.example.test/');
    expect(await writesSent(world)).toBe(0);
  });
});
