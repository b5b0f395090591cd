import { describe, expect, it } from 'vitest';
import { generateFleet, type SandboxProfile } from '../../src/sandbox/index.js';
import { sandboxPer } from '../helpers/sandbox.js';
import { client, start } from './helpers.js';

describe.each<SandboxProfile>(['compat-6.1', 'spec', 'next'])('site abilities (%s)', (profile) => {
  const sb = sandboxPer('test', () => start({ profile }));
  const api = client(sb);

  it('serves the categories route with every category the catalogue uses', async () => {
    const res = await api.raw('GET', '/wp-json/wp-abilities/v1/categories', {
      headers: { authorization: api.admin },
    });
    expect(res.status).toBe(200);
    expect(res.body.map((c: { slug: string }) => c.slug)).toEqual([
      'svc-sites',
      'svc-updates',
      'svc-clients',
      'svc-tags',
      'svc-batch',
    ]);
    const anonymous = await api.raw('GET', '/wp-json/wp-abilities/v1/categories');
    expect(anonymous.status).toBe(401);
  });

  it('get-site-v1, count-sites-v1 and get-sites-basic-v1 read the fleet', async () => {
    const site = await api.ability('get-site-v1', {
      site_id_or_domain: 'one.example.test',
      include_stats: 1,
    });
    expect(site.status).toBe(200);
    expect(site.body).toMatchObject({
      id: 1,
      url: 'https://one.example.test/',
      status: 'connected',
      wp_version: '6.8.1',
      last_sync: null,
      stats: { plugin_updates: 2, theme_updates: 1, wp_update_available: true },
    });
    expect((await api.ability('count-sites-v1')).body).toEqual({ total: 3 });
    expect((await api.ability('count-sites-v1', { status: 'disconnected' })).body).toEqual({ total: 1 });
    const basic = await api.ability('get-sites-basic-v1', { per_page: 2, page: 2 });
    expect(basic.body).toEqual({
      items: [{ id: 3, url: 'https://three.example.test/', name: 'three.example.test' }],
      page: 2,
      per_page: 2,
      total: 3,
    });
    const unknown = await api.ability('get-site-v1', { site_id_or_domain: 99 });
    expect(unknown.body.code).toBe('svc_site_not_found');
  });

  it('get-site-plugins-v1 / -themes-v1 show pending versions an ignore hides from list-updates-v1', async () => {
    const themes = await api.ability('get-site-themes-v1', { site_id_or_domain: 1, has_update: 1 });
    expect(themes.body.active_theme).toBe('twentytwentyfive');
    expect(
      themes.body.themes.map(
        (t: { slug: string; update_version: string }) => `${t.slug}@${t.update_version}`,
      ),
    ).toEqual(['twentytwentyfive@1.2', 'astra@4.11.3']);
    const plugins = await api.ability('get-site-plugins-v1', { site_id_or_domain: 2 });
    expect(plugins.body.total).toBe(2);
    expect(plugins.body.plugins[1]).toEqual({
      slug: 'elementor/elementor.php',
      name: expect.any(String),
      version: '3.29.2',
      active: true,
      update_version: '3.30.0',
    });
  });

  it('lists what the last sync saw until sync-sites-v1 picks up an update made outside the dashboard', async () => {
    const outside = await api.control('POST', 'outside-update', {
      site: 1,
      kind: 'plugin',
      slug: 'akismet/akismet.php',
    });
    expect(outside.status).toBe(200);
    const pending = async () =>
      (
        await api.ability('list-updates-v1', { site_ids_or_domains: [1], types: ['plugins'] })
      ).body.updates.map((u: { slug: string }) => u.slug);
    expect(await pending()).toContain('akismet/akismet.php');
    const synced = await api.ability(
      'sync-sites-v1',
      { site_ids_or_domains: [1, 3, 'nowhere.test'] },
      { method: 'POST' },
    );
    expect(synced.status).toBe(200);
    expect(synced.body.synced).toEqual([
      { id: 1, url: 'https://one.example.test/', name: 'one.example.test' },
    ]);
    expect(synced.body.errors.map((e: { code: string }) => e.code)).toEqual([
      'svc_site_not_found',
      'svc_site_offline',
    ]);
    expect(await pending()).toEqual(['woocommerce/woocommerce.php']);
    const site = await api.ability('get-site-v1', { site_id_or_domain: 1 });
    expect(site.body.last_sync).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('REST /batch sites.sync also applies outside updates; REST site records show the flags', async () => {
    const method = profile === 'spec' ? 'POST' : 'GET';
    const coreUpdates = async () =>
      (await api.ability('get-site-updates-v1', { site_id_or_domain: 1, types: ['core'] }, { method })).body
        .updates;
    await api.control('POST', 'outside-update', { site: 1, kind: 'core' });
    expect(await coreUpdates()).toHaveLength(1);
    const batch = await api.rest('POST', 'batch', { sites: { sync: [1] } });
    expect(batch.body.sites.sync[0].success).toBe(1);
    expect(await coreUpdates()).toEqual([]);
    await api.rest('POST', 'updates/2/ignore/themes');
    const sites = await api.rest('GET', 'sites');
    expect(sites.body.data[1]).toMatchObject({
      id: '2',
      is_ignoreThemeUpdates: '1',
      is_ignorePluginUpdates: '0',
    });
  });
});

describe('sync-sites-v1 over more than 200 sites', () => {
  const sb = sandboxPer('suite', () =>
    start({ fleet: generateFleet({ sites: 205, pendingPerSite: 1, ignoredPerSite: 0, seed: 3 }) }),
  );
  const api = client(sb);

  it('queues a sync_ job that get-batch-job-status-v1 follows to completion', async () => {
    const queued = await api.ability('sync-sites-v1', {}, { method: 'POST' });
    expect(queued.body).toMatchObject({ queued: true, sites_queued: 205 });
    expect(queued.body.job_id).toMatch(/^sync_[0-9a-f-]{36}$/);
    let status = { status: 'queued', succeeded: 0 };
    for (let i = 0; i < 20 && status.status !== 'completed'; i++)
      status = (await api.ability('get-batch-job-status-v1', { job_id: queued.body.job_id })).body;
    expect(status).toMatchObject({ status: 'completed', type: 'sync', total: 205 });
  });
});
