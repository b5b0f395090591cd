import { describe, expect, it } from 'vitest';
import type { SandboxProfile } from '../../src/sandbox/index.js';
import { sandboxPer } from '../helpers/sandbox.js';
import { client, start } from './helpers.js';

describe.each<SandboxProfile>(['compat-6.1', 'spec'])('read abilities (%s)', (profile) => {
  const compat = profile === 'compat-6.1';
  const sb = sandboxPer('suite', () => start({ profile }));
  const api = client(sb);

  it('list-updates-v1 pages over the flattened list; summary and total count every item', async () => {
    const first = await api.ability('list-updates-v1', { per_page: 3 });
    expect(first.status).toBe(200);
    expect(first.body.summary).toEqual({ core: 1, plugins: 4, themes: 1, translations: 1, total: 7 });
    expect(first.body).toMatchObject({ page: 1, per_page: 3, total: 7 });
    expect(first.body.updates.map((u: { slug: string }) => u.slug)).toEqual([
      'wordpress',
      'akismet/akismet.php',
      'woocommerce/woocommerce.php',
    ]);
    expect(first.body.updates[0]).toEqual({
      site_id: 1,
      site_url: 'https://one.example.test/',
      site_name: 'one.example.test',
      type: 'core',
      slug: 'wordpress',
      name: 'WordPress',
      current_version: '6.8.1',
      new_version: '6.8.3',
    });
    const last = await api.ability('list-updates-v1', { per_page: 3, page: 3 });
    expect(last.body.updates).toHaveLength(1);
    expect('errors' in first.body).toBe(compat);
  });

  it('list-updates-v1 filters by site and type and reports unknown sites as errors', async () => {
    const res = await api.ability('list-updates-v1', {
      site_ids_or_domains: ['two.example.test', 99],
      types: ['plugins'],
    });
    expect(res.body.updates.map((u: { site_id: number; slug: string }) => `${u.site_id}:${u.slug}`)).toEqual([
      '2:akismet/akismet.php',
    ]);
    if (compat) {
      expect(res.body.errors).toEqual([
        {
          site_id: 0,
          site_url: '99',
          site_name: '',
          type: 'site',
          slug: '',
          code: 'svc_site_not_found',
          message: 'No site found with ID 99.',
        },
      ]);
    } else {
      // The spec's listing has no errors[]: an unknown site is simply not listed.
      expect(res.body).not.toHaveProperty('errors');
    }
  });

  it('get-site-updates-v1 answers on the profile method with the profile shape', async () => {
    const method = compat ? 'GET' : 'POST';
    const res = await api.ability(
      'get-site-updates-v1',
      { site_id_or_domain: 'www.one.example.test', types: ['themes'] },
      { method },
    );
    expect(res.status).toBe(200);
    expect(res.body.site_id).toBe(1);
    expect(res.body.summary).toEqual({ core: 0, plugins: 0, themes: 1, translations: 0, total: 1 });
    expect(res.body.updates[0].slug).toBe('twentytwentyfive');
    expect('site_id' in res.body.updates[0]).toBe(compat);
    expect('rollback_items' in res.body).toBe(compat);
    const wrong = await api.ability(
      'get-site-updates-v1',
      { site_id_or_domain: 1 },
      { method: compat ? 'POST' : 'GET' },
    );
    expect(wrong.status).toBe(405);
  });

  it('get-site-updates-v1 reports an unknown site as 403 (compat) or 404 (spec)', async () => {
    const res = await api.ability(
      'get-site-updates-v1',
      { site_id_or_domain: 'nowhere.test' },
      { method: compat ? 'GET' : 'POST' },
    );
    expect(res.body.code).toBe('svc_site_not_found');
    expect(res.body.message).toBe('No site found matching "nowhere.test".');
    expect(res.status).toBe(compat ? 403 : 404);
    if (compat) {
      // The ability raises 404; WordPress core rewrites it to 403 and keeps the original status.
      expect(res.body.data).toEqual({ status: 403 });
      expect(res.body.additional_data).toEqual([{ status: 404 }]);
    } else {
      // The spec profile's ability answers its own 404 as is: the plain envelope, nothing rewritten.
      expect(res.body).toEqual({
        code: 'svc_site_not_found',
        message: 'No site found matching "nowhere.test".',
        data: { status: 404 },
      });
    }
  });

  it('list-ignored-updates-v1 lists per-site and global ignores (global repeated per site)', async () => {
    const res = await api.ability('list-ignored-updates-v1', compat ? {} : { per_page: 2 });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(4);
    if (compat) {
      expect(
        res.body.ignored.map((i: { site_id: number; slug: string }) => `${i.site_id}:${i.slug}`),
      ).toEqual(['1:astra', '2:elementor/elementor.php', '2:astra', '3:astra']);
      expect(res.body.ignored[1]).toMatchObject({
        type: 'plugin',
        name: 'elementor/elementor.php',
        ignored_version: 'all_versions',
      });
      const paged = await api.ability('list-ignored-updates-v1', { page: 1 });
      expect(paged.status).toBe(400);
      expect(paged.body.message).toMatch(/page is not a valid property of Object\./);
    } else {
      expect(res.body.ignored).toHaveLength(2);
      expect(Object.keys(res.body).sort()).toEqual(['ignored', 'total']);
    }
  });

  it('list-sites-v1 derives status and filters', async () => {
    const all = await api.ability('list-sites-v1');
    expect(all.body.items.map((s: { status: string }) => s.status)).toEqual([
      'connected',
      'connected',
      'disconnected',
    ]);
    expect(all.body.items[0]).toEqual({
      id: 1,
      url: 'https://one.example.test/',
      name: 'one.example.test',
      status: 'connected',
      client_id: null,
    });
    const offline = await api.ability('list-sites-v1', { status: 'disconnected' });
    expect(offline.body.items.map((s: { id: number }) => s.id)).toEqual([3]);
    const paged = await api.ability('list-sites-v1', { per_page: 1, page: 2 });
    expect(paged.body).toMatchObject({ page: 2, per_page: 1, total: 3 });
    expect((await api.ability('list-sites-v1', { per_page: 101 })).status).toBe(400);
  });

  it('get-batch-job-status-v1 rejects a bad prefix (400) and an unknown job (404)', async () => {
    const bad = await api.ability('get-batch-job-status-v1', { job_id: 'job_1' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('svc_invalid_job_id');
    const unknown = await api.ability('get-batch-job-status-v1', {
      job_id: 'update_00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('svc_job_not_found');
  });
});
