import { afterEach, describe, expect, it } from 'vitest';
import { ChunkSizer, expectedPages } from '../../src/dashboard/live/chunk-size.js';
import { generateFleet } from '../../src/sandbox/index.js';
import { type Harness, openHarness } from './helpers/sandbox.js';

let h: Harness | undefined;
afterEach(() => h?.close());

describe('ChunkSizer', () => {
  it('names as many sites as most often fit one page, from the measured updates per site', () => {
    const sizer = new ChunkSizer(200, 25);
    expect(sizer.size()).toBe(25);
    // Six updates a site, give or take two.
    sizer.observe(Array.from({ length: 600 }, (_, i) => 4 + (i % 5)));
    const n = sizer.size();
    expect(n).toBeGreaterThan(25);
    expect(n).toBeLessThanOrEqual(Math.floor(200 / 6));
    expect(expectedPages(n * 6, n * 2, 200)).toBeLessThan(1.15);
  });

  it('names every site a line holds when sites have no updates', () => {
    const sizer = new ChunkSizer(200, 25);
    sizer.observe(new Array(100).fill(0));
    expect(sizer.size()).toBeGreaterThanOrEqual(225);
  });

  it('shrinks chunks so a slow dashboard answers well within the request timeout', () => {
    const sizer = new ChunkSizer(200, 25, 30_000);
    sizer.observe(new Array(100).fill(1));
    expect(sizer.size()).toBe(200);
    // 25 sites took 5 s: 200 ms a site, a quarter of 30 s holds 37 sites.
    sizer.observeTime(25, 5000);
    expect(sizer.size()).toBe(37);
  });
});

describe('chunks on a dashboard whose updates listing is slow per site', () => {
  it('reads without a timeout where a page-sized chunk would time out', async () => {
    // 1 update a site: a page-sized chunk names 200 sites, 2 s at 10 ms a site, over the 1.5 s
    // timeout; chunks capped by the measured cost take about 0.4 s each.
    const fleet = generateFleet({ sites: 400, pendingPerSite: 1, ignoredPerSite: 0, seed: 9 });
    h = await openHarness(
      { profile: 'compat-6.1', fleet, siteCost: { msPerSite: 10 } },
      {
        SVC_REQUEST_TIMEOUT: '1500',
        SVC_RETRY_MAX_RETRIES: '1',
      },
    );
    const live = await h.client().readLive();
    expect(live.sites).toHaveLength(400);
  }, 20_000);
});
