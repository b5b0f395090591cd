import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_MS_PER_SITE,
  defaultSiteCost,
  generateFleet,
  type RunningSandbox,
  startSandbox,
} from '../../src/sandbox/index.js';
import { client } from './helpers.js';

let sb: RunningSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

const fleet = generateFleet({ sites: 300, pendingPerSite: 4, ignoredPerSite: 1, seed: 3 });

async function siteWork(c: ReturnType<typeof client>): Promise<Record<string, number>> {
  const stats = await c.control('GET', 'stats');
  return stats.body.site_work as Record<string, number>;
}

describe('the sandbox models what a listing costs the dashboard per site', () => {
  it('counts the whole fleet for every unfiltered updates page, the named sites for a filtered one', async () => {
    sb = await startSandbox({ fleet, profile: 'compat-6.1', siteCost: { msPerSite: 0 } });
    const c = client(sb);
    await c.ability('list-updates-v1', { page: 1, per_page: 200 });
    await c.ability('list-updates-v1', { page: 2, per_page: 200 });
    expect((await siteWork(c))['svc/list-updates-v1']).toBe(600);
    await c.ability('list-updates-v1', { site_ids_or_domains: [1, 2, 3], page: 1, per_page: 200 });
    expect((await siteWork(c))['svc/list-updates-v1']).toBe(603);
    await c.ability('list-ignored-updates-v1', { site_ids_or_domains: [4, 5] });
    expect((await siteWork(c))['svc/list-ignored-updates-v1']).toBe(2);
    const stats = await c.control('GET', 'stats');
    expect(stats.body.site_work_total).toBe(605);
  });

  it('answers that much later when the cost is on', async () => {
    sb = await startSandbox({ fleet, profile: 'compat-6.1', siteCost: { msPerSite: 2 } });
    const c = client(sb);
    const started = performance.now();
    await c.ability('list-updates-v1', { page: 1, per_page: 200 });
    // A lower bound only: 300 sites × 2 ms are slept before the answer.
    expect(performance.now() - started).toBeGreaterThanOrEqual(590);
  });

  it('is on by default in the shipped-plugin profiles, off in spec and by SVC_SANDBOX_SITE_COST_MS=0', () => {
    expect(defaultSiteCost('compat-6.1', {}).msPerSite).toBe(DEFAULT_MS_PER_SITE);
    expect(defaultSiteCost('next', {}).msPerSite).toBe(DEFAULT_MS_PER_SITE);
    expect(defaultSiteCost('spec', {}).msPerSite).toBe(0);
    expect(defaultSiteCost('next', { SVC_SANDBOX_SITE_COST_MS: '0' }).msPerSite).toBe(0);
    expect(defaultSiteCost('spec', { SVC_SANDBOX_SITE_COST_MS: '0.5' }).msPerSite).toBe(0.5);
    expect(() => defaultSiteCost('spec', { SVC_SANDBOX_SITE_COST_MS: 'slow' })).toThrow(/milliseconds/);
  });
});
