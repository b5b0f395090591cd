import { afterEach, describe, expect, it } from 'vitest';
import { createAbilityCaller } from '../../src/dashboard/abilities/call.js';
import { readCatalogue } from '../../src/dashboard/abilities/catalogue.js';
import { abilityFunctions } from '../../src/dashboard/abilities/functions.js';
import { type Connection, openConnection } from '../../src/dashboard/connection.js';
import { type Harness, openHarness } from './helpers/sandbox.js';
import { json, startServer, type TestServer, testSettings } from './helpers/server.js';

let h: Harness | undefined;
let conn: Connection | undefined;
afterEach(async () => {
  await conn?.transport.close();
  await h?.close();
  h = undefined;
  conn = undefined;
});

async function functionsFor(profile: 'compat-6.1' | 'spec') {
  h = await openHarness({ profile, queueThreshold: 1000 });
  conn = openConnection(h.settings);
  const catalogue = await readCatalogue(conn);
  if (!catalogue) throw new Error('the sandbox should offer the abilities API');
  return { fns: abilityFunctions(createAbilityCaller(conn, catalogue)), catalogue };
}

describe.each(['compat-6.1', 'spec'] as const)(
  'typed ability functions against the %s sandbox',
  (profile) => {
    it('chooses the method from the annotations', async () => {
      const { catalogue } = await functionsFor(profile);
      expect(catalogue.get('svc/list-updates-v1')?.method).toBe('GET');
      expect(catalogue.get('svc/run-updates-v1')?.method).toBe('POST');
      expect(catalogue.get('svc/get-site-updates-v1')?.method).toBe(profile === 'spec' ? 'POST' : 'GET');
      expect(catalogue.get('svc/list-ignored-updates-v1')?.properties.has('page')).toBe(profile === 'spec');
    });

    it('reads with every listing ability', async () => {
      const { fns } = await functionsFor(profile);
      expect((await fns.listSites(1, 2)).sites.map((s) => s.id)).toEqual([1, 2]);
      const page = await fns.listUpdates({ sites: [2], kinds: ['plugin'], page: 1, perPage: 10 });
      expect(page.updates.map((u) => u.slug)).toEqual(['akismet/akismet.php']);
      const site = await fns.getSiteUpdates(1, ['theme']);
      expect(site.map((u) => `${u.siteId}:${u.slug}`)).toEqual(['1:astra']);
      const ignored = await fns.listIgnoredUpdates([1]);
      expect(ignored.ignored.some((i) => i.slug === 'woocommerce/woocommerce.php')).toBe(true);
    });

    it('updates with every single-site ability and the multi-site ones', async () => {
      const { fns } = await functionsFor(profile);
      expect((await fns.updateSitePlugins(1, ['jetpack/jetpack.php'])).updated.map((u) => u.slug)).toEqual([
        'jetpack/jetpack.php',
      ]);
      expect((await fns.updateSiteThemes(1, ['astra'])).updated.map((u) => u.slug)).toEqual(['astra']);
      expect((await fns.updateSiteCore(1)).updated).toEqual([
        expect.objectContaining({ siteId: 1, kind: 'core', slug: 'wordpress' }),
      ]);
      expect((await fns.updateSiteTranslations(1)).count).toBeGreaterThan(0);
      const run = await fns.runUpdates({ sites: [2], kinds: ['plugin'], items: ['akismet/akismet.php'] });
      expect(run).toMatchObject({
        queued: false,
        updated: [expect.objectContaining({ siteId: 2, slug: 'akismet/akismet.php' })],
      });
      const all = await fns.updateAll([2]);
      expect(all.queued).toBe(false);
      const stats = await h?.stats();
      // Each update ran once; updateAll([2]) ran only what site 2 had left and does not ignore
      // (core; not its themes, ignored by flag, nor the globally ignored hello-dolly).
      expect(stats?.updates_run).toEqual([
        { site_id: 1, kind: 'plugin', slug: 'jetpack/jetpack.php', count: 1 },
        { site_id: 1, kind: 'theme', slug: 'astra', count: 1 },
        { site_id: 1, kind: 'core', slug: 'wordpress', count: 1 },
        { site_id: 1, kind: 'translation', slug: 'akismet', language: 'de_DE', count: 1 },
        { site_id: 1, kind: 'translation', slug: 'akismet', language: 'fr_FR', count: 1 },
        { site_id: 2, kind: 'plugin', slug: 'akismet/akismet.php', count: 1 },
        { site_id: 2, kind: 'core', slug: 'wordpress', count: 1 },
      ]);
    });

    it('ignores with every ignore ability', async () => {
      const { fns } = await functionsFor(profile);
      expect((await fns.setIgnoredUpdates('ignore', 1, 'plugin', 'akismet/akismet.php')).ok).toBe(true);
      expect((await fns.ignoreSiteCore(1, 'add')).ok).toBe(true);
      expect((await fns.ignoreSitePlugins(1, 'add', ['jetpack/jetpack.php'])).ok).toBe(true);
      expect((await fns.ignoreSiteThemes(1, 'add', ['astra'])).ok).toBe(true);
      const slugs = (await fns.listIgnoredUpdates([1])).ignored.map((i) => i.slug);
      expect(slugs).toEqual(
        expect.arrayContaining(['akismet/akismet.php', 'wordpress', 'jetpack/jetpack.php', 'astra']),
      );
      expect((await fns.setIgnoredUpdates('unignore', 1, 'plugin', 'akismet/akismet.php')).ok).toBe(true);
      expect((await fns.listIgnoredUpdates([1])).ignored.map((i) => i.slug)).not.toContain(
        'akismet/akismet.php',
      );
    });

    it('reads job status and names a bad job id', async () => {
      const { fns } = await functionsFor(profile);
      await expect(
        fns.getBatchJobStatus('update_00000000-0000-4000-8000-000000000000'),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(fns.getBatchJobStatus('nope')).rejects.toMatchObject({ code: 'HTTP_ERROR' });
    });
  },
);

describe('the abilities catalogue from a hostile dashboard', () => {
  let server: TestServer | undefined;
  afterEach(() => server?.close());

  const catalogueFrom = async (headers: Record<string, string>, items: unknown[] = []) => {
    server = await startServer((_req, res) => json(res, 200, items, headers));
    conn = openConnection(testSettings(server.url));
    return readCatalogue(conn);
  };

  it('refuses an implausible page count before asking for a second page', async () => {
    await expect(catalogueFrom({ 'X-WP-TotalPages': '50000000' })).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
      message: expect.stringContaining('at most 100'),
    });
    expect(server!.requests).toHaveLength(1);
  });

  it('refuses a catalogue shorter than the total it reports', async () => {
    const ability = { name: 'svc/list-sites-v1', meta: { annotations: { readonly: true } } };
    await expect(catalogueFrom({ 'X-WP-Total': '150' }, [ability])).rejects.toMatchObject({
      code: 'INCOMPLETE_READ',
    });
  });
});
