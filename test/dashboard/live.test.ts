import { afterEach, describe, expect, it } from 'vitest';
import { createAbilityCaller } from '../../src/dashboard/abilities/call.js';
import { readCatalogue } from '../../src/dashboard/abilities/catalogue.js';
import { openConnection } from '../../src/dashboard/connection.js';
import { parseUpdatesPage } from '../../src/dashboard/wire/reads.js';
import { generateFleet } from '../../src/sandbox/index.js';
import { type Harness, openHarness } from './helpers/sandbox.js';
import { json, startServer, type TestServer } from './helpers/server.js';

let h: Harness | undefined;
afterEach(() => h?.close());

describe.each(['compat-6.1', 'spec'] as const)('readLive against the %s sandbox', (profile) => {
  it('reads sites, pending updates and ignores completely', async () => {
    h = await openHarness({ profile });
    const live = await h.client().readLive();
    expect(live.dashboardUrl).toBe(h.sandbox.url);
    expect(live.sites.map((s) => [s.id, s.url, s.status])).toEqual([
      [1, 'https://alpha.example.test/', 'connected'],
      [2, 'https://beta.example.test/', 'connected'],
      [3, 'https://gamma.example.test/', 'disconnected'],
      [4, 'https://delta.example.test/', 'suspended'],
    ]);
    const pending1 = live.pending
      .filter((p) => p.siteId === 1)
      .map((p) => `${p.kind}:${p.slug}:${p.from}->${p.to}`);
    expect(pending1).toEqual([
      'core:wordpress:6.8.1->6.8.3',
      'plugin:akismet/akismet.php:5.3.6->5.3.7',
      'plugin:jetpack/jetpack.php:13.0->13.1',
      'theme:astra:4.6.0->4.7.0',
      'translation:akismet:5.3.6->',
    ]);
    const ignores = live.ignores.map(
      (i) => `${i.siteId}:${i.kind}:${i.slug}:${JSON.stringify(i.versions)}:${i.origin}`,
    );
    expect(ignores).toContain('1:plugin:woocommerce/woocommerce.php:"all":site');
    expect(ignores).toContain('2:core:wordpress:["6.9"]:site');
    expect(ignores).toContain('2:theme:astra:["4.7.0","4.8.0"]:site');
    for (const site of [1, 2, 3, 4])
      expect(ignores).toContain(`${site}:plugin:hello-dolly/hello.php:"all":global`);
    // Site 2's theme flag: read from the REST site records, with the update it hides.
    expect(ignores).toContain('2:theme:*:"all":site-flag');
    expect(live.hidden).toEqual([
      {
        siteId: 2,
        kind: 'theme',
        slug: 'twentytwentyfive',
        name: 'Twenty Twenty-Five',
        from: '1.0',
        to: '1.1',
      },
    ]);
    expect(live.capabilities).toEqual({
      surface: 'abilities',
      canUnignore: true,
      canIgnore: true,
      canIgnoreCore: true,
      queueThreshold: 200,
      siteFlags: 'read-write',
    });
  });

  it('issues exactly the minimum requests, reading the catalogue once per client', async () => {
    h = await openHarness({ profile });
    const client = h.client();
    await client.readLive();
    await client.readLive();
    const stats = await h.stats();
    expect(stats.requests['GET /abilities']).toBe(1);
    // The site listing with its flags is one REST GET /sites per read (a REST key is set), plus
    // the themes of the one flagged site.
    expect(stats.abilities).toEqual({
      'svc/list-updates-v1': 2,
      'svc/list-ignored-updates-v1': 2,
      'svc/get-site-themes-v1': 2,
    });
    expect(stats.requests['GET /sites']).toBe(2);
    expect(client.stats().requests).toBe(9);
  });

  it('reads the site listing from list-sites-v1 without a REST key, the flags unseen', async () => {
    h = await openHarness({ profile }, { SVC_TOKEN: '' });
    const live = await h.client().readLive();
    const stats = await h.stats();
    expect(live.sites).toHaveLength(4);
    expect(stats.abilities['svc/list-sites-v1']).toBe(1);
    expect(stats.requests['GET /sites']).toBeUndefined();
    expect(live.capabilities.siteFlags).toBe('unseen');
  });

  it('reads list-updates in site chunks of about one full page each', async () => {
    const fleet = generateFleet({ sites: 250, pendingPerSite: 3, ignoredPerSite: 1, seed: 7 });
    // A request timeout far beyond any loopback answer, so chunks are sized by pages alone (the
    // time cap, a quarter of the timeout, would shrink them on a loaded machine).
    h = await openHarness({ profile, fleet }, { SVC_REQUEST_TIMEOUT: '600000' });
    const progress: Array<number | undefined> = [];
    const live = await h.client().readLive({ onProgress: (p) => progress.push(p.total) });
    const stats = await h.stats();
    const conn = openConnection(h.settings);
    const catalogue = await readCatalogue(conn);
    const caller = createAbilityCaller(conn, catalogue ?? new Map());
    const { total } = parseUpdatesPage(
      await caller.call('list-updates-v1', { page: 1, per_page: 1 }),
      'list-updates',
    );
    await conn.transport.close();
    expect(total).toBeGreaterThan(400);
    expect(live.sites).toHaveLength(250);
    // The whole site listing in one REST request, whose IDs feed the chunks at once.
    expect(stats.abilities['svc/list-sites-v1']).toBeUndefined();
    expect(stats.requests['GET /sites']).toBe(1);
    // Chunks sized from the measured updates per site: a few more requests than whole pages.
    expect(stats.abilities['svc/list-updates-v1']).toBeGreaterThanOrEqual(Math.ceil(total / 200));
    expect(stats.abilities['svc/list-updates-v1']).toBeLessThanOrEqual(Math.ceil((total / 200) * 1.5));
    expect(live.pending.length).toBeGreaterThan(400);
    expect(progress.at(-1)).toBeTypeOf('number');
  });

  it('reads only the asked sites and reports unknown ones as unreadable', async () => {
    h = await openHarness({ profile });
    const live = await h.client().readLive({ siteIds: [2, 999] });
    expect(live.sites.map((s) => s.id)).toEqual([2]);
    expect(new Set(live.pending.map((p) => p.siteId))).toEqual(new Set([2]));
    expect(live.unreadable).toEqual([expect.objectContaining({ siteId: 999 })]);
    expect(live.ignores.find((i) => i.slug === 'hello-dolly/hello.php')?.origin).toBe('global');
  });
});

describe('readLive of the REST site listing (sites and site-wide flags)', () => {
  it('reads GET /sites in pages of 100 when its one answer is beyond maxResponseSize', async () => {
    // 200 sites, nothing pending or ignored: every abilities page (and the ~33 KB catalogue)
    // stays below the limit, while the one REST answer with every site record (~250 bytes each)
    // is larger than it.
    const fleet = generateFleet({ sites: 200, pendingPerSite: 0, ignoredPerSite: 0, seed: 11 });
    h = await openHarness({ fleet });
    const limit = 40_000;
    const records = await fetch(`${h.sandbox.url}/wp-json/svc/v2/sites?per_page=100`, {
      headers: { authorization: `Bearer ${h.sandbox.credentials.token}` },
    });
    expect((await records.text()).length).toBeGreaterThan(limit);
    const live = await h.client({ maxResponseSize: limit }).readLive();
    expect(live.sites).toHaveLength(200);
    expect(live.capabilities.siteFlags).toBe('read-write');
    // The test's own fetch, the refused whole answer, then pages 1 and 2.
    expect((await h.stats()).requests['GET /sites']).toBe(4);
  });

  it('still refuses a records answer beyond what the limit allows, whole or paged', async () => {
    const fleet = generateFleet({ sites: 3, pendingPerSite: 0, ignoredPerSite: 0, seed: 11 });
    h = await openHarness({ fleet });
    await h.control('PUT', 'faults', [{ kind: 'oversized', route: '/v2/sites', bytes: 40_000 }]);
    await expect(h.client({ maxResponseSize: 30_000 }).readLive()).rejects.toMatchObject({
      code: 'RESPONSE_TOO_LARGE',
    });
  });
});

describe('readLive with another interface namespace', () => {
  it('uses the namespace in ability names', async () => {
    h = await openHarness({ namespace: 'acme' });
    expect(h.settings.namespace).toBe('acme');
    const live = await h.client().readLive();
    expect(live.sites).toHaveLength(4);
    expect(Object.keys((await h.stats()).abilities)).toContain('acme/list-updates-v1');
  });
});

describe('readLive against a dashboard that drops listed items', () => {
  let proxy: TestServer | undefined;
  afterEach(() => proxy?.close());

  it('refuses an ignored-updates listing shorter than its total: a missing ignore never becomes a plan', async () => {
    h = await openHarness();
    const upstream = h.sandbox.url.replace(/\/$/, '');
    // A proxy in front of the sandbox that drops one ignore and keeps the listing's total.
    proxy = await startServer(async (req, res, body) => {
      const method = req.method ?? 'GET';
      const answer = await fetch(upstream + (req.url ?? '/'), {
        method,
        headers: { authorization: req.headers.authorization ?? '', 'content-type': 'application/json' },
        ...(method === 'GET' || method === 'HEAD' ? {} : { body }),
      });
      let text = await answer.text();
      if (req.url?.includes('list-ignored-updates-v1')) {
        const listing = JSON.parse(text) as { ignored: unknown[]; total: number };
        listing.ignored = listing.ignored.slice(1);
        text = JSON.stringify(listing);
      }
      json(res, answer.status, JSON.parse(text));
    });
    const read = h.client({ dashboardUrl: proxy.url }).readLive();
    await expect(read).rejects.toMatchObject({
      code: 'INCOMPLETE_READ',
      message: expect.stringMatching(/list-ignored-updates-v1.*holds \d+ items but reports a total of \d+/),
    });
  });

  it('refuses a REST site listing whose pages fall short of its total: never fewer sites', async () => {
    const fleet = generateFleet({ sites: 250, pendingPerSite: 0, ignoredPerSite: 0, seed: 11 });
    h = await openHarness({ fleet });
    const upstream = h.sandbox.url.replace(/\/$/, '');
    // The unpaged answer cut to 20 sites with the fleet's total (MainWP's paged default), so the
    // client reads pages of 100; the last page loses 10 of its 50 sites.
    proxy = await startServer(async (req, res, body) => {
      const method = req.method ?? 'GET';
      const url = req.url ?? '/';
      const answer = await fetch(upstream + url, {
        method,
        headers: { authorization: req.headers.authorization ?? '', 'content-type': 'application/json' },
        ...(method === 'GET' || method === 'HEAD' ? {} : { body }),
      });
      const reply = (await answer.json()) as { data?: unknown[] };
      if (url.includes('/v2/sites') && Array.isArray(reply.data)) {
        const keep = !url.includes('page=') ? 20 : url.includes('page=3') ? 40 : 100;
        reply.data = reply.data.slice(0, keep);
      }
      json(res, answer.status, reply);
    });
    await expect(h.client({ dashboardUrl: proxy.url }).readLive()).rejects.toMatchObject({
      code: 'INCOMPLETE_READ',
      message: expect.stringMatching(/REST GET \/sites: page 3 of 3 has 40 items \(expected 50\)/),
    });
  });
});

describe('readLive against an ignored-updates listing that shifts while it is paged (spec sandbox)', () => {
  // 600 sites with 2 per-site ignores each: 1200 entries, two pages of the IGNORED_PER_PAGE_MAX
  // (1000) the sandbox serves however many are asked; entry 1000 (the end of page 1) is site
  // 500's second ignore.
  const fleet = () => generateFleet({ sites: 600, pendingPerSite: 1, ignoredPerSite: 2, seed: 3 });

  it('refuses an entry read twice across pages (another was missed): never a live state from it', async () => {
    h = await openHarness({ profile: 'spec', fleet: fleet() });
    const mover = h.client();
    const before = await mover.readLive();
    expect(before.ignores).toHaveLength(1200);
    const lastOfSite600 = before.ignores.filter((i) => i.siteId === 600).at(-1)?.slug as string;
    // Pages after the first wait a second, so the listing can move between page 1 and page 2.
    await h.control('PUT', 'faults', [
      { kind: 'latency', ability: 'list-ignored-updates-v1', skip: 1, delayMs: 1000 },
    ]);
    await h.control('POST', 'stats/reset');
    const read = h
      .client()
      .readLive()
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    while (((await h.stats()).abilities['svc/list-ignored-updates-v1'] ?? 0) < 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    // Page 1 was served: an item moves (one ignore added on page 1, one removed on page 2), so
    // the total stays and page 2 starts with the entry that ended page 1.
    await mover.setIgnored({ siteId: 1, kind: 'plugin', direction: 'ignore', slugs: ['moved/moved.php'] });
    await mover.setIgnored({ siteId: 600, kind: 'plugin', direction: 'unignore', slugs: [lastOfSite600] });
    expect(await read).toMatchObject({
      code: 'INCOMPLETE_READ',
      message: expect.stringMatching(
        /^the dashboard's listing changed while it was read: ignore plugin \S+ of site 500 was listed twice$/,
      ),
    });
    // Once the listing holds still, the same read is complete again.
    await h.control('PUT', 'faults', []);
    const after = await h.client().readLive();
    expect(after.ignores).toHaveLength(1200);
    expect(after.ignores).toContainEqual(expect.objectContaining({ siteId: 1, slug: 'moved/moved.php' }));
  });

  it("reads a site's own copy of a global ignore on the next page as consistent", async () => {
    const copies = generateFleet({ sites: 600, pendingPerSite: 1, seed: 3 });
    // Every site lists its own core ignore, then the identical global one; site 1's extra plugin
    // ignore puts site 500's pair on both sides of the page boundary (entries 1000 and 1001).
    copies.globalIgnores.core = 'all';
    for (const site of copies.sites) site.ignores.core = 'all';
    copies.sites[0]?.ignores.plugins.push({ slug: 'a/a.php', name: 'a/a.php', versions: 'all' });
    h = await openHarness({ profile: 'spec', fleet: copies });
    const live = await h.client().readLive();
    expect((await h.stats()).abilities['svc/list-ignored-updates-v1']).toBe(2);
    expect(live.ignores.filter((i) => i.kind === 'core').map((i) => i.origin)).toEqual(
      Array(600).fill('global'),
    );
  });
});

describe('readLive of targeted sites (selectSites) against the compat-6.1 sandbox', () => {
  // 600 sites: the ignored listing travels in two pieces of site IDs; a target needs one.
  const fleet = () => generateFleet({ sites: 600, pendingPerSite: 2, ignoredPerSite: 2, seed: 5 });

  it("reads only the targets' ignores when every entry of theirs was set through an ability", async () => {
    h = await openHarness({ profile: 'compat-6.1', fleet: fleet() });
    const whole = await h.client().readLive();
    await h.control('POST', 'stats/reset');
    const live = await h.client().readLive({ selectSites: () => [7, 300] });
    const stats = await h.stats();
    expect(stats.abilities['svc/list-ignored-updates-v1']).toBe(1);
    expect(stats.abilities['svc/list-updates-v1']).toBe(1);
    expect(live.sites).toHaveLength(600);
    const of = (l: typeof live) => l.ignores.filter((i) => i.siteId === 7 || i.siteId === 300);
    expect(live.ignores).toEqual(of(whole));
    expect(live.pending).toEqual(whole.pending.filter((p) => p.siteId === 7 || p.siteId === 300));
  });

  it('reads the whole listing when a target lists an ignore that may be global', async () => {
    const withGlobal = fleet();
    withGlobal.globalIgnores.plugins.push({ slug: 'akismet/akismet.php', name: 'Akismet', versions: 'all' });
    h = await openHarness({ profile: 'compat-6.1', fleet: withGlobal });
    await h.control('POST', 'stats/reset');
    const live = await h.client().readLive({ selectSites: () => [7] });
    expect((await h.stats()).abilities['svc/list-ignored-updates-v1']).toBeGreaterThan(1);
    expect(
      live.ignores.filter((i) => i.slug === 'akismet/akismet.php').map((i) => [i.siteId, i.origin]),
    ).toEqual([[7, 'global']]);
  });
});
