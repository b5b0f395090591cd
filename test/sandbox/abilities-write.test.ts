import { describe, expect, it } from 'vitest';
import type { SandboxProfile } from '../../src/sandbox/index.js';
import { sandboxPer } from '../helpers/sandbox.js';
import { client, start } from './helpers.js';

describe.each<SandboxProfile>(['compat-6.1', 'spec'])('write abilities (%s)', (profile) => {
  const compat = profile === 'compat-6.1';
  const sb = sandboxPer('test', () => start({ profile }));
  const api = client(sb);

  const post = (name: string, input: Record<string, unknown>) => api.ability(name, input, { method: 'POST' });
  const pendingSlugs = async (site: number) =>
    (await api.ability('list-updates-v1', { site_ids_or_domains: [site] })).body.updates.map(
      (u: { slug: string }) => u.slug,
    );

  it('run-updates-v1 runs selected items, reports failures, offline and unknown sites', async () => {
    const res = await post('run-updates-v1', { site_ids_or_domains: [1, 2, 3, 99], types: ['plugins'] });
    expect(res.status).toBe(200);
    expect(res.body.updated.map((u: { site_id: number; slug: string }) => `${u.site_id}:${u.slug}`)).toEqual([
      '1:akismet/akismet.php',
      '1:woocommerce/woocommerce.php',
    ]);
    expect(res.body.updated[1]).toMatchObject({
      old_version: '9.8.5',
      new_version: '10.0.2',
      type: 'plugin',
    });
    const codes = res.body.errors.map((e: { site_id: number; code: string }) => `${e.site_id}:${e.code}`);
    expect(codes).toEqual(['0:svc_site_not_found', '2:svc_update_failed', '3:svc_site_offline']);
    expect(res.body.summary).toEqual({ total_updated: 2, total_errors: 3, sites_updated: 1 });
    expect(await pendingSlugs(1)).toEqual(['wordpress', 'twentytwentyfive', 'default']);
    const stats = await api.control('GET', 'stats');
    expect(stats.body.updates_run_total).toBe(2);
    expect(stats.body.abilities['svc/run-updates-v1']).toBe(1);
  });

  it('run-updates-v1 with specific_items updates that item on every site that has it pending', async () => {
    const res = await post('run-updates-v1', {
      types: ['plugins'],
      specific_items: ['woocommerce/woocommerce.php'],
    });
    expect(res.body.updated.map((u: { slug: string }) => u.slug)).toEqual(['woocommerce/woocommerce.php']);
  });

  it('update-site-core-v1 updates once, then has nothing to do', async () => {
    const first = await post('update-site-core-v1', { site_id_or_domain: 1 });
    expect(first.status).toBe(200);
    if (compat)
      expect(first.body.updated).toMatchObject({
        type: 'core',
        slug: 'wordpress',
        old_version: '6.8.1',
        new_version: '6.8.3',
      });
    else
      expect(first.body).toEqual({
        site_id: 1,
        site_url: 'https://one.example.test/',
        updated: true,
        old_version: '6.8.1',
        new_version: '6.8.3',
      });
    const again = await post('update-site-core-v1', { site_id_or_domain: 1 });
    if (compat) expect([again.status, again.body.code]).toEqual([404, 'svc_no_updates']);
    else expect(again.body.updated).toBe(false);
    const offline = await post('update-site-core-v1', { site_id_or_domain: 3 });
    expect([offline.status, offline.body.code]).toEqual([400, 'svc_site_offline']);
  });

  it('update-site-plugins-v1 drops slugs that are not pending; [] means all', async () => {
    const some = await post('update-site-plugins-v1', {
      site_id_or_domain: 1,
      slugs: ['akismet/akismet.php', 'not/pending.php'],
    });
    const rest = await post('update-site-plugins-v1', { site_id_or_domain: 1, slugs: [] });
    const slugsOf = (body: { updated: Array<{ slug: string }> }) => body.updated.map((u) => u.slug);
    expect(slugsOf(some.body)).toEqual(['akismet/akismet.php']);
    expect(slugsOf(rest.body)).toEqual(['woocommerce/woocommerce.php']);
    if (compat) expect(rest.body.summary).toEqual({ total_updated: 1, total_errors: 0 });
    else expect(rest.body).toMatchObject({ site_id: 1, total_updated: 1, errors: [] });
  });

  it('update-site-themes-v1 and update-site-translations-v1 clear their pending items', async () => {
    const themes = await post('update-site-themes-v1', { site_id_or_domain: 'one.example.test' });
    expect(themes.body.updated.map((u: { slug: string }) => u.slug)).toEqual(['twentytwentyfive']);
    const translations = await post('update-site-translations-v1', { site_id_or_domain: 1 });
    if (compat)
      expect(translations.body.updated[0]).toMatchObject({
        type: 'translation',
        slug: 'default',
        new_version: '',
      });
    else expect(translations.body).toMatchObject({ updated: true, translations_updated: 1 });
    expect(await pendingSlugs(1)).toEqual([
      'wordpress',
      'akismet/akismet.php',
      'woocommerce/woocommerce.php',
    ]);
  });

  it('set-ignored-updates-v1 ignores and unignores one item', async () => {
    const ignore = await post('set-ignored-updates-v1', {
      action: 'ignore',
      site_id_or_domain: 1,
      type: 'plugin',
      slug: 'akismet/akismet.php',
    });
    expect(ignore.body).toEqual({
      success: true,
      action: 'ignore',
      site_id: 1,
      type: 'plugin',
      slug: 'akismet/akismet.php',
    });
    expect(await pendingSlugs(1)).not.toContain('akismet/akismet.php');
    await post('set-ignored-updates-v1', {
      action: 'unignore',
      site_id_or_domain: 1,
      type: 'plugin',
      slug: 'akismet/akismet.php',
    });
    expect(await pendingSlugs(1)).toContain('akismet/akismet.php');
    await post('set-ignored-updates-v1', {
      action: 'ignore',
      site_id_or_domain: 1,
      type: 'core',
      slug: 'wordpress',
    });
    expect(await pendingSlugs(1)).not.toContain('wordpress');
  });

  it('ignore-site-core-v1 adds and removes the per-site core ignore', async () => {
    const add = await post('ignore-site-core-v1', { site_id_or_domain: 1, action: 'add' });
    if (compat) expect(add.body).toMatchObject({ success: true, ignored_count: 1 });
    else expect(add.body).toEqual({ success: true, site_id: 1, action: 'add', core_ignored: true });
    expect(await pendingSlugs(1)).not.toContain('wordpress');
    await post('ignore-site-core-v1', { site_id_or_domain: 1, action: 'remove' });
    expect(await pendingSlugs(1)).toContain('wordpress');
    const noAction = await post('ignore-site-core-v1', { site_id_or_domain: 1 });
    expect(noAction.status).toBe(compat ? 200 : 400);
  });

  it('ignore-site-plugins-v1 and -themes-v1 answer in the profile shape', async () => {
    const plugins = await post('ignore-site-plugins-v1', {
      site_id_or_domain: 1,
      action: 'add',
      slugs: ['akismet/akismet.php', 'woocommerce/woocommerce.php'],
    });
    if (compat)
      expect(plugins.body).toEqual({ success: true, message: '2 plugins ignored.', ignored_count: 2 });
    else expect(plugins.body.plugins_ignored).toEqual(['akismet/akismet.php', 'woocommerce/woocommerce.php']);
    const removed = await post('ignore-site-themes-v1', {
      site_id_or_domain: 1,
      action: 'remove',
      slugs: ['twentytwentyfive'],
    });
    if (compat) expect(removed.body.message).toBe('1 theme unignored.');
    else expect(removed.body.themes_ignored).toEqual([]);
    const empty = await post('ignore-site-plugins-v1', {
      site_id_or_domain: 1,
      slugs: [],
      ...(compat ? {} : { action: 'add' }),
    });
    expect(empty.body.success).toBe(!compat);
    expect(await pendingSlugs(1)).toEqual(['wordpress', 'twentytwentyfive', 'default']);
  });

  it('update-all-v1 applies every update; compat treats types [] as nothing', async () => {
    if (compat) {
      const nothing = await post('update-all-v1', { types: [] });
      expect(nothing.body.updated).toEqual([]);
    }
    const res = await post('update-all-v1', { site_ids_or_domains: [1, 2] });
    if (compat) expect(res.body.updated).toHaveLength(5);
    else expect(res.body.updated).toEqual({ core: 1, plugins: 2, themes: 1, translations: 1 });
    expect(res.body.summary).toEqual({ total_updated: 5, total_errors: 1, sites_updated: 1 });
  });
});
