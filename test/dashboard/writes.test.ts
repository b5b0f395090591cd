import { afterEach, describe, expect, it } from 'vitest';
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

  it('syncs sites through the global batch route in chunks of 100', async () => {
    h = await openHarness({ profile });
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

  it('needs a REST key for syncSites', async () => {
    h = await openHarness();
    await expect(h.client({ token: undefined } as never).syncSites([1])).rejects.toMatchObject({
      code: 'UNSUPPORTED',
    });
  });
});
