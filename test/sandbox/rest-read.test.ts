import { describe, expect, it } from 'vitest';
import { generateFleet, type SandboxProfile, startSandbox } from '../../src/sandbox/index.js';
import { sandboxPer } from '../helpers/sandbox.js';
import { client, start } from './helpers.js';

describe.each<SandboxProfile>(['compat-6.1', 'spec'])('REST v2 auth and listings (%s)', (profile) => {
  const compat = profile === 'compat-6.1';
  const sb = sandboxPer('suite', () => start({ profile }));
  const api = client(sb);

  it('authenticates the bearer token <secret>==<key> and its variants', async () => {
    expect((await api.rest('GET', 'updates/1')).status).toBe(200);
    const [secret, key] = sb.credentials.token.split('==') as [string, string];
    expect(
      (
        await api.rest(
          'GET',
          'updates/1',
          undefined,
          `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`,
        )
      ).status,
    ).toBe(200);
    const none = await api.rest('GET', 'updates/1', undefined, null);
    expect([none.status, none.body.code, none.body.message]).toEqual([
      401,
      'svc_rest_authentication_error',
      'You are not authenticated.',
    ]);
    const unknown = await api.rest('GET', 'updates/1', undefined, 'Bearer cs_x==ck_unknown');
    expect([unknown.status, unknown.body.code]).toEqual([401, 'svc_rest_authentication_disabled_key']);
    const wrongSecret = await api.rest('GET', 'updates/1', undefined, `Bearer cs_wrong==${key}`);
    expect([wrongSecret.status, wrongSecret.body.message]).toEqual([401, 'Consumer secret is invalid.']);
    const half = await api.raw('GET', `/wp-json/svc/v2/updates/1?consumer_key=${key}`);
    expect([half.status, half.body.code]).toEqual([401, 'svc_rest_authentication_missing_parameter']);
  });

  it('refuses a read-only key on write routes with 401 (compat) or 403 (spec)', async () => {
    const readOnly = 'Bearer cs_readonly==ck_readonly';
    expect((await api.rest('GET', 'updates/1', undefined, readOnly)).status).toBe(200);
    const write = await api.rest('POST', 'updates/1/ignore/wp', {}, readOnly);
    expect(write.status).toBe(compat ? 401 : 403);
    expect(write.body.message).toBe('The API key provided does not have write permissions.');
  });

  it('answers unknown paths and wrong methods with 404 rest_no_route', async () => {
    const wrongMethod = await api.rest('DELETE', 'updates');
    expect([wrongMethod.status, wrongMethod.body.code]).toEqual([404, 'rest_no_route']);
    expect((await api.rest('GET', 'nothing/here')).status).toBe(404);
    expect((await api.rest('GET', 'updates/localhost')).body.code).toBe('rest_no_route');
  });

  it('GET /updates is the flat capped list (compat) or the site map (spec)', async () => {
    const res = await api.rest('GET', 'updates');
    expect(res.body.success).toBe(1);
    if (compat) {
      expect(Array.isArray(res.body.data)).toBe(true);
      expect(res.body.data).toHaveLength(7);
      expect(res.body.data[0]).toMatchObject({ type: 'core', slug: 'wordpress', site_id: 1 });
    } else {
      expect(Object.keys(res.body.data)).toEqual(['1', '2', '3']);
      expect(res.body.data['1'].wp).toEqual({ current: '6.8.1', new: '6.8.3' });
      expect(res.body.data['1'].plugins['akismet/akismet.php']).toEqual({
        Name: 'Akismet Anti-spam: Spam Protection',
        Version: '5.3.6',
        update: { plugin: 'akismet/akismet.php', new_version: '5.3.7' },
      });
      expect(res.body.data['2'].wp).toEqual({});
      expect(res.body.data['1'].translations).toEqual([
        { type: 'core', slug: 'default', language: 'de_DE', version: '6.8.1', name: 'WordPress' },
      ]);
    }
  });

  it('GET /updates handles type, search, include, exclude and status per profile', async () => {
    const wp = await api.rest('GET', 'updates?type=wp');
    if (compat) expect([wp.status, wp.body.code]).toEqual([500, 'ability_invalid_input']);
    else expect(Object.keys(wp.body.data['1'])).toEqual(['wp']);
    const searched = await api.rest('GET', 'updates?type=plugins&search=woo');
    if (compat) expect(searched.body.data).toHaveLength(4);
    else expect(Object.keys(searched.body.data['1'].plugins)).toEqual(['woocommerce/woocommerce.php']);
    const included = await api.rest('GET', 'updates?include=2,3');
    if (compat) expect(included.body.data.map((e: { site_id: number }) => e.site_id)).toEqual([2, 3]);
    else expect(Object.keys(included.body.data)).toEqual(['2', '3']);
    const excluded = await api.rest('GET', 'updates?exclude=1');
    if (compat) {
      // Position 1 is removed, not site 1: the list has a gap and becomes an object.
      expect(Array.isArray(excluded.body.data)).toBe(false);
      expect(Object.keys(excluded.body.data)).toEqual(['0', '2', '3', '4', '5', '6']);
    } else {
      expect(Object.keys(excluded.body.data)).toEqual(['2', '3']);
    }
    const badStatus = await api.rest('GET', 'updates?status=weird');
    expect([badStatus.status, badStatus.body.code]).toEqual([400, 'svc_rest_invalid_param']);
  });

  it('GET /updates/{id_or_domain} is the map shape in both profiles', async () => {
    const res = await api.rest('GET', 'updates/two.example.test');
    expect(res.body.data.plugins).toEqual({
      'akismet/akismet.php': {
        Name: 'Akismet Anti-spam: Spam Protection',
        Version: '5.3.6',
        update: { plugin: 'akismet/akismet.php', new_version: '5.3.7' },
      },
    });
    expect(res.body.data.themes).toEqual(compat ? [] : {});
    expect((await api.rest('GET', 'updates/1?type=bogus')).body.data).toBeNull();
    const unknownId = await api.rest('GET', 'updates/42');
    expect([unknownId.status, unknownId.body.code]).toEqual([404, 'svc_rest_invalid_site_id']);
    const unknownDomain = await api.rest('GET', 'updates/nowhere.test');
    expect([unknownDomain.status, unknownDomain.body.code]).toEqual([404, 'svc_rest_invalid_site_data']);
  });

  it('the ignored listings are 500 (compat) or the ignore maps (spec)', async () => {
    const global = await api.rest('GET', 'updates/ignored');
    const site = await api.rest('GET', 'updates/2/ignored');
    if (compat) {
      expect([global.status, global.body.code, site.status]).toEqual([500, 'ability_invalid_input', 500]);
    } else {
      expect(global.body.data).toEqual({
        themes: { astra: { Name: 'Astra', ignored_versions: ['all_versions'] } },
      });
      expect(Object.keys(site.body.data.plugins)).toEqual(['elementor/elementor.php']);
      expect(Object.keys(site.body.data.themes)).toEqual(['astra']);
    }
  });
});

describe('REST GET /updates cap', () => {
  it('caps the shipped flat list at 50 entries', async () => {
    const sb = await startSandbox({ fleet: generateFleet({ sites: 30, pendingPerSite: 6, seed: 3 }) });
    try {
      const res = await client(sb).rest('GET', 'updates');
      expect(res.body.data).toHaveLength(50);
    } finally {
      await sb.close();
    }
  });
});

describe('REST GET /sites as MainWP 6.1.2 on WordPress 6.9 answers it', () => {
  it('pages (20 by default, at most 100) with the fleet total; with_tags=false lists every site', async () => {
    const sb = await startSandbox({ fleet: generateFleet({ sites: 250, pendingPerSite: 0, seed: 3 }) });
    try {
      const api = client(sb);
      const ids = (body: { data: Array<{ id: unknown }> }) => body.data.map((s) => s.id);
      const first = await api.rest('GET', 'sites');
      expect([first.body.total, first.body.data.length, ids(first.body)[0]]).toEqual([250, 20, '1']);
      const third = await api.rest('GET', 'sites?page=3&per_page=100');
      expect([third.body.total, ids(third.body).at(0), ids(third.body).at(-1)]).toEqual([250, '201', '250']);
      expect((await api.rest('GET', 'sites?per_page=500')).body.data).toHaveLength(100);
      const all = await api.rest('GET', 'sites?with_tags=false');
      expect([all.body.total, all.body.data.length]).toEqual([250, 250]);
    } finally {
      await sb.close();
    }
  });
});
