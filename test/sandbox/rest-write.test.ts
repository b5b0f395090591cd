import { describe, expect, it } from 'vitest';
import type { SandboxProfile } from '../../src/sandbox/index.js';
import { sandboxPer } from '../helpers/sandbox.js';
import { client, start } from './helpers.js';

describe.each<SandboxProfile>(['compat-6.1', 'spec'])('REST v2 run and ignore routes (%s)', (profile) => {
  const compat = profile === 'compat-6.1';
  const sb = sandboxPer('test', () => start({ profile }));
  const api = client(sb);

  const pending = async (site: number) =>
    (await api.ability('list-updates-v1', { site_ids_or_domains: [site] })).body.updates.map(
      (u: { slug: string }) => u.slug,
    );

  it('update/plugins needs a slug in compat, runs all in spec; failures are keyed URL-encoded', async () => {
    const noSlug = await api.rest('POST', 'updates/1/update/plugins', {});
    if (compat) expect(noSlug.body).toEqual({ success: 0, message: 'No Plugins to update.' });
    else
      expect(Object.keys(noSlug.body.data)).toEqual(['akismet/akismet.php', 'woocommerce/woocommerce.php']);
    const failing = await api.rest(
      'PUT',
      'updates/2/update/plugins?slug=akismet/akismet.php,elementor/elementor.php',
    );
    expect(failing.body).toEqual({
      success: 1,
      data: { 'akismet%2Fakismet.php': { success: 0, error: 'No response from the child site server.' } },
    });
    const offline = await api.rest('PATCH', 'updates/3/update/plugins', { slug: 'akismet/akismet.php' });
    expect([offline.status, offline.body.code]).toEqual([500, 'svc_rest_upgrade_plugins_of_site_error']);
  });

  it('update/plugins with a slug runs only that pending slug', async () => {
    const res = await api.rest('POST', 'updates/1/update/plugins', { slug: ['woocommerce/woocommerce.php'] });
    expect(res.body).toEqual({
      success: 1,
      data: {
        'woocommerce/woocommerce.php': {
          success: 1,
          name: 'WooCommerce',
          old_version: '9.8.5',
          version: '10.0.2',
        },
      },
    });
    if (compat) {
      // MainWP 6.1.2 lists the updated item until the site is synced (restKindRunListedUntilSync).
      expect(await pending(1)).toContain('woocommerce/woocommerce.php');
      await api.rest('POST', 'batch', { sites: { sync: [1] } });
    }
    expect(await pending(1)).not.toContain('woocommerce/woocommerce.php');
  });

  it('update/wp and update/themes and update/translations', async () => {
    const wp = await api.rest('POST', 'updates/1/update/wp');
    expect(wp.body).toEqual({
      success: 1,
      message: 'WordPress was updated to the latest version.',
      data: { old_version: '6.8.1', version: '6.8.3' },
    });
    expect((await api.rest('POST', 'updates/1/update/wp')).body.success).toBe(0);
    const themes = await api.rest('POST', 'updates/1/update/themes', { slug: 'twentytwentyfive' });
    expect(themes.body.data.twentytwentyfive.success).toBe(1);
    const translations = await api.rest('POST', 'updates/1/update/translations', { slug: 'default' });
    expect(translations.body.data.default.success).toBe(1);
    if (compat) await api.rest('POST', 'batch', { sites: { sync: [1] } });
    expect(await pending(1)).toEqual(['akismet/akismet.php', 'woocommerce/woocommerce.php']);
  });

  it('per-site update-all is synchronous (compat) or started as a job (spec)', async () => {
    const res = await api.rest('POST', 'updates/one.example.test/update');
    if (compat) {
      expect(res.body).toMatchObject({
        success: 1,
        message: 'Batch updates for the site completed.',
        summary: [],
      });
      expect(res.body.last_time_start_batch_updates).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
      expect(await pending(1)).toEqual([]);
    } else {
      expect(res.body).toEqual({ success: 1, message: 'Site updates started.' });
      expect(await pending(1)).toHaveLength(5);
      await api.control('POST', 'clock', { seconds: 61 });
      expect(await pending(1)).toEqual([]);
    }
  });

  it('refuses per-site update-all on a suspended site', async () => {
    await api.rest('POST', 'batch', { sites: { suspend: [2] } });
    const res = await api.rest('POST', 'updates/2/update');
    expect([res.status, res.body.code]).toEqual([400, 'svc_rest_updates_site_error']);
  });

  it('POST /updates/update runs everything (compat) or starts a job (spec)', async () => {
    const res = await api.rest('POST', 'updates/update', { type: 'plugins' });
    if (compat) {
      expect(res.body).toMatchObject({
        success: 1,
        message: 'Batch updates completed.',
        summary: { total_updated: 5, total_errors: 2, sites_updated: 1 },
      });
    } else {
      expect(res.body.job_id).toMatch(/^update_[0-9a-f-]{36}$/);
      await api.control('POST', 'clock', { seconds: 61 });
      expect(await pending(1)).toEqual(['wordpress', 'twentytwentyfive', 'default']);
    }
  });

  it('ignore/wp and slug-less ignore/plugins set the site-wide flags (not listed as ignores)', async () => {
    expect((await api.rest('POST', 'updates/1/ignore/wp')).body).toEqual({
      success: 1,
      message: 'Ignore core update successfully.',
    });
    const plugins = await api.rest('POST', 'updates/1/ignore/plugins');
    expect(plugins.body).toEqual({
      success: 1,
      message: 'Ignore update plugins per site successfully.',
      // The spec's reply is `{success, message}`; 6.1 adds `url` (see fidelity.test.ts).
      ...(compat ? { url: 'https://one.example.test/' } : {}),
    });
    expect(await pending(1)).toEqual(['twentytwentyfive', 'default']);
    const flagged = await api.rest('POST', 'updates/1/update/plugins', { slug: 'akismet/akismet.php' });
    expect(flagged.body).toEqual({ success: 0, message: 'Plugins ignored updates per site.' });
    const listed = await api.ability('list-ignored-updates-v1', compat ? { site_ids_or_domains: [1] } : {});
    expect(
      listed.body.ignored
        .filter((i: { site_id: number }) => i.site_id === 1)
        .map((i: { slug: string }) => i.slug),
    ).toEqual(['astra']);
  });

  it('site edit clears the site-wide flags set by the REST ignore routes', async () => {
    await api.rest('POST', 'updates/1/ignore/wp');
    expect(await pending(1)).not.toContain('wordpress');
    const edited = await api.rest('POST', 'sites/one.example.test/edit', { ignore_core_updates: 0 });
    expect(edited.body).toMatchObject({ success: 1, data: { id: '1', is_ignoreCoreUpdates: '0' } });
    expect(await pending(1)).toContain('wordpress');
    expect((await api.rest('POST', 'sites/404/edit', {})).body.code).toBe('svc_rest_invalid_site_id');
  });

  it('ignore/themes with a slug stores indices (compat bug) or the slug (spec)', async () => {
    const res = await api.rest('POST', 'updates/1/ignore/themes', { slug: 'twentytwentyfive' });
    if (compat) {
      expect(res.body).toEqual({ success: 1, data: ['success'], url: 'https://one.example.test/' });
      expect(await pending(1)).toContain('twentytwentyfive');
      expect(
        (await api.rest('POST', 'updates/1/ignore/themes', { slug: 'twentytwentyfive' })).body.data,
      ).toEqual([]);
    } else {
      expect(res.body.success).toBe(1);
      expect(await pending(1)).not.toContain('twentytwentyfive');
    }
  });
});
