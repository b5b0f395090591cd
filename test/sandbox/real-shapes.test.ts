/**
 * The shapes MainWP 6.1.2 showed on a real dashboard (issue 30), in profile compat-6.1 with the
 * rig's fleet: site names, REST site records and their paging, the Allow header, the
 * categories, the whole shipped catalogue, and the poisoned ignored listing.
 */
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { rigFleet } from '../helpers/rig-fleet.js';
import { sandboxPer } from '../helpers/sandbox.js';
import { client } from './helpers.js';

const SHIPPED = 64;

describe('compat-6.1 shapes of the real dashboard', () => {
  const sb = sandboxPer('test', () =>
    startSandbox({ fleet: rigFleet(), namespace: 'mainwp', quirks: { fullShippedCatalogue: true } }),
  );
  const api = client(sb, 'mainwp');

  it('names each site by its name in site_name, not by its address', async () => {
    const res = await api.ability('list-updates-v1', { per_page: 1 });
    expect(res.body.updates[0]).toMatchObject({ site_id: 1, site_name: 'child1' });
    const ignored = await api.ability('list-ignored-updates-v1');
    expect(ignored.status).toBe(200);
  });

  it('serves REST site records with string ids, page/per_page (default 20) and total', async () => {
    const all = await api.rest('GET', 'sites');
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(3);
    expect(all.body.data[0]).toMatchObject({ id: '1', name: 'child1', is_ignorePluginUpdates: '0' });
    expect(all.headers.get('allow')).toBe('GET');
    const second = await api.rest('GET', 'sites?page=2&per_page=2');
    expect(second.body).toMatchObject({ success: 1, total: 3 });
    expect(second.body.data.map((s: { id: string }) => s.id)).toEqual(['3']);
  });

  it('answers /sites/{id} with the record and an unknown site with 500 ability_invalid_permissions', async () => {
    const one = await api.rest('GET', 'sites/2');
    expect(one.status).toBe(200);
    expect(Object.keys(one.body)).toEqual(['data']);
    expect(one.body.data).toMatchObject({ id: '2', url: 'http://127.0.0.1:8182/', ignored_plugins: '' });
    const anonymous = await api.rest('GET', 'sites/2', undefined, null);
    expect([anonymous.status, anonymous.headers.get('allow')]).toEqual([401, null]);
    const missing = await api.rest('GET', 'sites/999');
    expect(missing.status).toBe(500);
    expect(missing.body.code).toBe('ability_invalid_permissions');
  });

  it('answers a site edit with the whole record and Allow: POST, PUT, PATCH', async () => {
    const edited = await api.rest('POST', 'sites/1/edit', { ignore_theme_updates: 1 });
    expect(edited.status).toBe(200);
    expect(edited.headers.get('allow')).toBe('POST, PUT, PATCH');
    expect(edited.body.success).toBe(1);
    expect(edited.body.data).toMatchObject({ id: '1', is_ignoreThemeUpdates: '1', wp_version: '6.9.1' });
    expect(edited.body.data).toHaveProperty('plugin_upgrades');
  });

  it('pages the categories and writes their empty meta as []', async () => {
    const res = await api.raw('GET', '/wp-json/wp-abilities/v1/categories', {
      headers: { authorization: api.admin },
    });
    expect(res.headers.get('x-wp-total')).toBe(String(res.body.length));
    expect(res.headers.get('x-wp-totalpages')).toBe('1');
    expect(res.body.map((c: { slug: string }) => c.slug)).toEqual(
      expect.arrayContaining(['site', 'user', 'mainwp-sites', 'mainwp-updates', 'mainwp-clients']),
    );
    for (const category of res.body) expect(category.meta).toEqual([]);
  });

  it('lists all 64 shipped abilities; one it does not emulate answers 501 plainly', async () => {
    const res = await api.raw('GET', '/wp-json/wp-abilities/v1/abilities?per_page=100', {
      headers: { authorization: api.admin },
    });
    expect(res.headers.get('x-wp-total')).toBe(String(SHIPPED));
    expect(res.headers.get('allow')).toBe('GET');
    const names: string[] = res.body.map((a: { name: string }) => a.name);
    expect(names.filter((n) => n.startsWith('core/'))).toHaveLength(2);
    expect(names.filter((n) => n.startsWith('mainwp/'))).toHaveLength(SHIPPED - 2);
    const sites = res.body.find((a: { name: string }) => a.name === 'mainwp/list-sites-v1');
    expect(sites.input_schema.properties.status.enum).toContain('available_update');
    const run = await api.ability('count-clients-v1');
    expect(run.status).toBe(501);
    expect(run.headers.get('allow')).toBeNull();
    expect(run.body.code).toBe('sandbox_not_emulated');
    expect(run.body.message).toContain('mainwp/count-clients-v1');
  });

  it('filters sites by available_update', async () => {
    await api.rest('POST', 'sites/3/edit', { ignore_plugin_updates: 1, ignore_theme_updates: 1 });
    const res = await api.ability('list-sites-v1', { status: 'available_update' });
    expect(res.body.items.map((s: { id: number }) => s.id)).toEqual([1, 2]);
  });

  it('fails list-ignored-updates-v1 where a REST per-slug ignore stored slug 0, as MainWP 6.1.2 does', async () => {
    const poison = await api.rest('POST', 'updates/2/ignore/plugins', { slug: 'akismet/akismet.php' });
    expect(poison.body.success).toBe(1);
    const all = await api.ability('list-ignored-updates-v1');
    expect(all.status).toBe(500);
    expect(all.body).toEqual({
      code: 'ability_invalid_output',
      message:
        'Ability "mainwp/list-ignored-updates-v1" has invalid output. Reason: output[ignored][0][slug] is not of type string.',
      data: null,
    });
    const others = await api.ability('list-ignored-updates-v1', { site_ids_or_domains: [1, 3] });
    expect(others.status).toBe(200);
    const record = await api.rest('GET', 'sites/2');
    expect(JSON.parse(record.body.data.ignored_plugins)).toEqual([
      { Name: 'akismet/akismet.php', ignored_versions: ['all_versions'] },
    ]);
  });
});
