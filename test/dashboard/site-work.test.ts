import { afterEach, describe, expect, it } from 'vitest';
import { generateFleet } from '../../src/sandbox/index.js';
import { type Harness, openHarness } from './helpers/sandbox.js';

let h: Harness | undefined;
afterEach(() => h?.close());

interface WorkStats {
  site_work: Record<string, number>;
  abilities: Record<string, number>;
}

/**
 * The server's side of a read, counted by the sandbox (site-cost.ts): MainWP's list-updates-v1
 * builds the list of every site a request covers before it slices a page, so paging the whole
 * listing costs fleet × pages. Read in site chunks, the whole read costs about the fleet once.
 */
describe('the server-side cost of reading a 10,000-site fleet', () => {
  const fleet = generateFleet({ sites: 10_000, pendingPerSite: 3, ignoredPerSite: 0, seed: 31 });

  it('grows with the fleet, not fleet × pages', async () => {
    h = await openHarness({ profile: 'compat-6.1', fleet });
    const live = await h.client({ concurrency: 8 }).readLive();
    const stats = (await h.stats()) as unknown as WorkStats;
    const work = stats.site_work['svc/list-updates-v1'] ?? 0;
    const requests = stats.abilities['svc/list-updates-v1'] ?? 0;
    expect(live.sites).toHaveLength(10_000);
    expect(live.pending.length).toBeGreaterThan(20_000);
    // Every site is processed at least once; a chunk paged twice processes its sites twice.
    expect(work).toBeGreaterThanOrEqual(10_000);
    expect(work).toBeLessThan(10_000 * 1.2);
    // Most chunks take one page: about a page's worth of updates a request.
    expect(requests).toBeLessThan((live.pending.length / 200) * 1.4);
  }, 20_000);

  it('re-reads of many named sites cost those sites about once', async () => {
    h = await openHarness({ profile: 'compat-6.1', fleet });
    const asked = Array.from({ length: 3000 }, (_, i) => 3 * i + 1);
    await h.client().readLive({ siteIds: asked });
    const stats = (await h.stats()) as unknown as WorkStats;
    const work = stats.site_work['svc/list-updates-v1'] ?? 0;
    expect(work).toBeGreaterThanOrEqual(3000);
    expect(work).toBeLessThan(3000 * 1.2);
  }, 20_000);
});
