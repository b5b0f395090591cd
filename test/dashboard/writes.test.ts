import { afterEach, describe, expect, it } from 'vitest';
import { generateFleet } from '../../src/sandbox/index.js';
import { type Harness, openHarness } from './helpers/sandbox.js';

let h: Harness | undefined;
afterEach(() => h?.close());

const ignoreKeys = (
  live: { ignores: Array<{ siteId: number; kind: string; slug: string; origin: string }> },
  siteId: number,
) => live.ignores.filter((i) => i.siteId === siteId && i.origin === 'site').map((i) => `${i.kind}:${i.slug}`);

describe.each(['compat-6.1', 'spec'] as const)('writes against the %s sandbox', (profile) => {
  it('ignores and unignores plugins, themes and core in one call per site, kind and direction', async () => {
    h = await openHarness({ profile });
    const client = h.client();
    await client.setIgnored({
      siteId: 1,
      kind: 'plugin',
      direction: 'ignore',
      slugs: ['akismet/akismet.php', 'jetpack/jetpack.php'],
    });
    await client.setIgnored({ siteId: 1, kind: 'theme', direction: 'ignore', slugs: ['astra'] });
    await client.setIgnored({ siteId: 1, kind: 'core', direction: 'ignore', slugs: [] });
    let live = await client.readLive({ siteIds: [1] });
    expect(ignoreKeys(live, 1)).toEqual([
      'core:wordpress',
      'plugin:akismet/akismet.php',
      'plugin:jetpack/jetpack.php',
      'plugin:woocommerce/woocommerce.php',
      'theme:astra',
    ]);
    expect(live.pending.filter((p) => p.siteId === 1).map((p) => p.slug)).toEqual(['akismet']);
    await client.setIgnored({
      siteId: 1,
      kind: 'plugin',
      direction: 'unignore',
      slugs: ['akismet/akismet.php', 'woocommerce/woocommerce.php'],
    });
    await client.setIgnored({ siteId: 1, kind: 'core', direction: 'unignore', slugs: [] });
    live = await client.readLive({ siteIds: [1] });
    expect(ignoreKeys(live, 1)).toEqual(['plugin:jetpack/jetpack.php', 'theme:astra']);
    const abilities = (await h.stats()).abilities;
    expect(abilities['svc/ignore-site-plugins-v1']).toBe(2);
    expect(abilities['svc/ignore-site-themes-v1']).toBe(1);
    expect(abilities['svc/ignore-site-core-v1']).toBe(2);
  });

  it('runs exactly the planned items and nothing else', async () => {
    h = await openHarness({ profile });
    const client = h.client();
    const result = await client.runUpdates({
      siteIds: [1, 2],
      items: [{ kind: 'plugin', slug: 'akismet/akismet.php' }],
    });
    expect(result.errors).toEqual([]);
    expect(result.updated.map((u) => `${u.siteId}:${u.slug}`).sort()).toEqual([
      '1:akismet/akismet.php',
      '2:akismet/akismet.php',
    ]);
    const stats = await h.stats();
    expect(stats.updates_run.map((u) => `${u.site_id}:${u.slug}:${u.count}`).sort()).toEqual([
      '1:akismet/akismet.php:1',
      '2:akismet/akismet.php:1',
    ]);
    const live = await client.readLive();
    expect(live.pending.some((p) => p.slug === 'akismet/akismet.php' && p.siteId <= 2)).toBe(false);
    expect(live.pending.some((p) => p.siteId === 1 && p.slug === 'jetpack/jetpack.php')).toBe(true);
  });

  it('reports an offline site as a per-site error, not an exception', async () => {
    h = await openHarness({ profile });
    const result = await h
      .client()
      .runUpdates({ siteIds: [3], items: [{ kind: 'plugin', slug: 'akismet/akismet.php' }] });
    expect(result.updated).toEqual([]);
    expect(result.errors).toEqual([expect.objectContaining({ siteId: 3 })]);
  });

  it('polls a queued run to completion through get-batch-job-status-v1', async () => {
    h = await openHarness({ profile, queueThreshold: 1 });
    const progress: number[] = [];
    const result = await h.client().runUpdates({
      siteIds: [1, 2],
      items: [{ kind: 'plugin', slug: 'akismet/akismet.php' }],
      onJobProgress: (p) => progress.push(p.processed),
    });
    expect(result.jobId).toMatch(/^update_/);
    expect(result.updated.map((u) => u.siteId).sort()).toEqual([1, 2]);
    expect(progress.length).toBeGreaterThan(0);
    const stats = await h.stats();
    expect(stats.abilities['svc/get-batch-job-status-v1']).toBeGreaterThan(0);
    expect(stats.updates_run).toHaveLength(2);
  });

  it('syncs sites through sync-sites-v1, at most 200 sites per call, without a REST key', async () => {
    h = await openHarness({ profile, fleet: generateFleet({ sites: 250, pendingPerSite: 1, seed: 2 }) });
    const client = h.client({ token: undefined } as never);
    const ids = Array.from({ length: 250 }, (_, i) => i + 1);
    const result = await client.syncSites([...ids, 999]);
    expect(result.synced).toEqual(ids);
    expect(result.failed).toEqual([
      { siteId: 999, code: 'svc_site_not_found', message: 'No site found with ID 999.' },
    ]);
    const stats = await h.stats();
    expect(stats.abilities['svc/sync-sites-v1']).toBe(2);
    expect(stats.requests['POST /batch']).toBeUndefined();
  });

  it('syncs sites through the global batch route in chunks of 100 without the abilities API', async () => {
    h = await openHarness({ profile, surfaces: { abilities: false } });
    const client = h.client();
    const small = await client.syncSites([1, 2]);
    expect(small.synced).toEqual([1, 2]);
    const ids = Array.from({ length: 150 }, (_, i) => i + 1);
    const big = await client.syncSites(ids);
    expect(big.synced).toEqual(expect.arrayContaining([1, 2]));
    expect(big.synced.length + big.failed.length).toBe(150);
    expect((await h.stats()).requests['POST /batch']).toBe(3);
  });
});

describe('writes that cannot be done', () => {
  it('refuses empty run requests, which the dashboard would read as "everything"', async () => {
    h = await openHarness();
    await expect(
      h.client().runUpdates({ siteIds: [], items: [{ kind: 'plugin', slug: 'a/a.php' }] }),
    ).rejects.toMatchObject({
      code: 'INTERNAL',
    });
    expect((await h.stats()).abilities['svc/run-updates-v1']).toBeUndefined();
  });

  it('halves a /batch chunk the dashboard refuses with 413 (a lowered item limit)', async () => {
    h = await openHarness({ surfaces: { abilities: false }, batchLimit: 30 });
    const result = await h
      .client()
      .syncSites(
        Array.from({ length: 4 }, (_, i) => i + 1).concat(Array.from({ length: 60 }, (_, i) => 100 + i)),
      );
    // Site 3 is offline: it cannot sync; sites 100-159 do not exist.
    expect(result.synced).toEqual([1, 2, 4]);
    expect(result.failed).toHaveLength(61);
    // 64 → 413, 32 → 413, then four chunks of 16.
    expect((await h.stats()).requests['POST /batch']).toBe(6);
  });
});
