import { describe, expect, it } from 'vitest';
import { sandboxPer } from '../helpers/sandbox.js';
import { client, start } from './helpers.js';

/** Profile `next`: the next release's gated update abilities (dashboard-facts §9). */
describe('profile next: dry_run / confirm / preview tokens', () => {
  const sb = sandboxPer('test', () => start({ profile: 'next' }));
  const api = client(sb);
  const post = (name: string, input: Record<string, unknown>) => api.ability(name, input, { method: 'POST' });

  it('publishes the six update abilities as destructive with dry_run, confirm and preview_token', async () => {
    const all = await api.raw('GET', '/wp-json/wp-abilities/v1/abilities?per_page=100', {
      headers: { authorization: api.admin },
    });
    const byName = new Map(all.body.map((a: { name: string }) => [a.name, a]));
    for (const name of ['run-updates-v1', 'update-all-v1', 'update-site-plugins-v1', 'update-site-core-v1']) {
      const ability = byName.get(`svc/${name}`) as {
        meta: { annotations: Record<string, boolean> };
        input_schema: { properties: Record<string, unknown> };
      };
      expect(ability.meta.annotations).toMatchObject({
        destructive: true,
        idempotent: false,
        readonly: false,
      });
      expect(Object.keys(ability.input_schema.properties)).toEqual(
        expect.arrayContaining(['dry_run', 'confirm', 'preview_token']),
      );
    }
    const unignore = byName.get('svc/unignore-site-updates-v1') as {
      meta: { annotations: Record<string, boolean> };
    };
    expect(unignore.meta.annotations).toMatchObject({ destructive: true, idempotent: true });
  });

  it('refuses a run without either flag and with both', async () => {
    const neither = await post('run-updates-v1', { site_ids_or_domains: [1] });
    expect(neither.status).toBe(400);
    expect(neither.body.code).toBe('svc_confirmation_required');
    const both = await post('run-updates-v1', { site_ids_or_domains: [1], dry_run: true, confirm: true });
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({
      code: 'svc_invalid_input',
      message: 'Cannot specify both dry_run and confirm.',
    });
  });

  it('previews with skipped items and a token, then runs once with that token', async () => {
    const input = { site_ids_or_domains: [1], types: ['plugins', 'themes'] };
    const preview = await post('run-updates-v1', { ...input, dry_run: true });
    expect(preview.status).toBe(200);
    expect(preview.body.dry_run).toBe(true);
    const site = preview.body.would_affect.sites[0];
    expect(site.items.map((i: { slug: string }) => i.slug)).toEqual([
      'akismet/akismet.php',
      'woocommerce/woocommerce.php',
      'twentytwentyfive',
    ]);
    expect(site.items[1].flags).toEqual({ core: false, major: true });
    // astra is globally ignored in the small fleet.
    expect(site.skipped).toEqual([expect.objectContaining({ slug: 'astra', reason: 'ignored_global' })]);
    const token = preview.body.preview_token as string;
    expect(typeof token).toBe('string');
    // A token for other arguments is refused and nothing runs.
    const other = await post('run-updates-v1', {
      site_ids_or_domains: [1],
      confirm: true,
      preview_token: token,
    });
    expect(other.status).toBe(400);
    expect(other.body.code).toBe('svc_preview_token_invalid');
    const again = await post('run-updates-v1', { ...input, dry_run: true });
    const run = await post('run-updates-v1', {
      ...input,
      confirm: true,
      preview_token: again.body.preview_token,
    });
    expect(run.status).toBe(200);
    expect(run.body.dry_run).toBe(false);
    expect(run.body.updated).toEqual([
      { site_id: 1, type: 'plugin', slug: 'akismet/akismet.php', success: true },
      { site_id: 1, type: 'plugin', slug: 'woocommerce/woocommerce.php', success: true },
      { site_id: 1, type: 'theme', slug: 'twentytwentyfive', success: true },
    ]);
    expect(run.body.skipped).toEqual([expect.objectContaining({ slug: 'astra', reason: 'ignored_global' })]);
    expect(run.body.summary).toEqual({
      total_skipped: 1,
      total_updated: 3,
      total_errors: 0,
      sites_updated: 1,
    });
    const reused = await post('run-updates-v1', {
      ...input,
      confirm: true,
      preview_token: again.body.preview_token,
    });
    expect(reused.status).toBe(400);
  });

  it('expires a preview token after five minutes of the sandbox clock', async () => {
    const input = { site_id_or_domain: 1, slugs: ['akismet/akismet.php'] };
    const preview = await post('update-site-plugins-v1', { ...input, dry_run: true });
    await api.control('POST', 'clock', { seconds: 301 });
    const late = await post('update-site-plugins-v1', {
      ...input,
      confirm: true,
      preview_token: preview.body.preview_token,
    });
    expect(late.status).toBe(400);
    expect(late.body.code).toBe('svc_preview_token_invalid');
  });

  it('reports items hidden by a site-wide flag as skipped with ignored_site_flag', async () => {
    await api.rest('POST', 'updates/1/ignore/plugins');
    const preview = await post('update-site-plugins-v1', { site_id_or_domain: 1, dry_run: true });
    expect(preview.body.count).toBe(0);
    expect(preview.body.would_affect.sites[0].skipped.map((s: { reason: string }) => s.reason)).toEqual([
      'ignored_site_flag',
      'ignored_site_flag',
    ]);
  });

  it('moves unignoring to unignore-site-updates-v1 (DELETE)', async () => {
    await post('set-ignored-updates-v1', {
      action: 'ignore',
      site_id_or_domain: 1,
      type: 'plugin',
      slug: 'akismet/akismet.php',
    });
    const moved = await post('set-ignored-updates-v1', {
      action: 'unignore',
      site_id_or_domain: 1,
      type: 'plugin',
      slug: 'akismet/akismet.php',
    });
    expect(moved.status).toBe(400);
    expect(moved.body).toMatchObject({
      code: 'svc_unignore_moved',
      data: { status: 400, replacement: 'svc/unignore-site-updates-v1' },
    });
    const input = { site_id_or_domain: 1, type: 'plugin', slugs: ['akismet/akismet.php', 'hello.php'] };
    expect((await post('unignore-site-updates-v1', { ...input, dry_run: true })).status).toBe(405);
    const preview = await api.ability(
      'unignore-site-updates-v1',
      { ...input, dry_run: 1 },
      { method: 'DELETE' },
    );
    expect(preview.status).toBe(200);
    expect(preview.body.would_affect.holds[0]).toMatchObject({
      slug: 'akismet/akismet.php',
      held: true,
      still_held_by: [],
    });
    const done = await api.ability(
      'unignore-site-updates-v1',
      { ...input, confirm: 1 },
      { method: 'DELETE' },
    );
    expect(done.body).toEqual({
      dry_run: false,
      removed: ['akismet/akismet.php'],
      not_held: ['hello.php'],
      count: 1,
    });
  });
});
