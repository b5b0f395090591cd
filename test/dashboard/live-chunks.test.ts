import { afterEach, describe, expect, it } from 'vitest';
import { generateFleet } from '../../src/sandbox/index.js';
import { type Harness, openHarness } from './helpers/sandbox.js';

let h: Harness | undefined;
afterEach(() => h?.close());

/**
 * A re-read of thousands of sites behind an 8 KiB request-line limit: the sandbox refuses long
 * lines with 414, so a read that put every ID into one query fails here.
 */
describe.each(['compat-6.1', 'spec'] as const)('readLive of many sites behind 8 KiB (%s)', (profile) => {
  const fleet = generateFleet({ sites: 1500, pendingPerSite: 2, seed: 5 });

  it('reads the asked-for sites in runs that fit, exactly as the whole read has them', async () => {
    h = await openHarness({ profile, fleet });
    const whole = await h.client().readLive();
    const asked = whole.sites.filter((s) => s.id % 3 !== 0).map((s) => s.id);
    await h.control('POST', 'stats/reset');
    const progress: number[] = [];
    const part = await h.client().readLive({ siteIds: asked, onProgress: ({ done }) => progress.push(done) });
    const keep = new Set(asked);
    expect(part.sites).toEqual(whole.sites.filter((s) => keep.has(s.id)));
    expect(part.pending).toEqual(whole.pending.filter((p) => keep.has(p.siteId)));
    expect(part.ignores).toEqual(whole.ignores.filter((i) => keep.has(i.siteId)));
    const stats = await h.stats();
    expect(stats.requests['refused: too large'] ?? 0).toBe(0);
    expect(progress.length).toBeGreaterThan(1);
  });
});

describe('progress of a chunked read', () => {
  it('estimates the chunks still to read, so the first total is near the final count', async () => {
    h = await openHarness({
      profile: 'compat-6.1',
      fleet: generateFleet({ sites: 1500, pendingPerSite: 4, ignoredPerSite: 0, seed: 8 }),
    });
    const totals: number[] = [];
    let done = 0;
    await h.client().readLive({
      onProgress: (p) => {
        done = p.done;
        if (p.total !== undefined) totals.push(p.total);
      },
    });
    expect(totals.length).toBeGreaterThan(0);
    const first = totals[0] as number;
    expect(first).toBeGreaterThan(done * 0.7);
    expect(first).toBeLessThan(done * 1.3);
  });
});
