import { afterEach, describe, expect, it } from 'vitest';
import { createDashboardClient } from '../../src/dashboard/index.js';
import { json, startServer, type TestServer, testSettings } from './helpers/server.js';

let server: TestServer | undefined;
afterEach(() => server?.close());

const TOKEN = 'cs_secret==ck_key';
/** MainWP's bearer parser adds the cs_/ck_ prefixes itself: the client sends the key pair without them. */
const BEARER = 'Bearer secret==key';

/** A dashboard without the abilities API: REST v2 only, in the spec's map shapes. */
async function restOnlyDashboard(): Promise<TestServer> {
  return startServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (!path.startsWith('/wp-json/svc/v2/'))
      return json(res, 404, { code: 'rest_no_route', message: 'No route', data: { status: 404 } });
    if (req.headers.authorization !== BEARER)
      return json(res, 401, { code: 'svc_rest_authentication_error', message: 'You are not authenticated.' });
    const route = path.slice('/wp-json/svc/v2'.length);
    const routes: Record<string, unknown> = {
      '/sites': {
        success: 1,
        data: [
          { id: 1, url: 'https://a.example.test', name: 'A' },
          { id: 2, url: 'https://b.example.test/', name: 'B', suspended: '1' },
        ],
      },
      '/updates': {
        success: 1,
        data: {
          '1': {
            wp: { current: '6.8.1', new: '6.8.3' },
            plugins: {
              'akismet%2Fakismet.php': {
                Name: 'Akismet',
                Version: '5.3.6',
                update: { new_version: '5.3.7' },
              },
            },
            themes: [],
            translations: [],
          },
          '2': {
            wp: [],
            plugins: [],
            themes: { astra: { Name: 'Astra', Version: '4.6', update: { new_version: '4.7' } } },
            translations: [],
          },
        },
      },
      '/updates/ignored': {
        success: 1,
        data: { plugins: { 'hello/hello.php': { Name: 'Hello', ignored_versions: ['all_versions'] } } },
      },
      '/updates/1/ignored': {
        success: 1,
        data: {
          plugins: {
            'hello/hello.php': { Name: 'Hello', ignored_versions: ['all_versions'] },
            'woo/woo.php': 'Woo',
          },
        },
      },
      '/updates/2/ignored': {
        success: 1,
        data: { plugins: { 'hello/hello.php': { Name: 'Hello', ignored_versions: ['all_versions'] } } },
      },
    };
    if (!(route in routes)) return json(res, 404, { code: 'rest_no_route', message: 'No route' });
    json(res, 200, routes[route]);
  });
}

describe('REST v2 fallback', () => {
  it('reads through REST when the abilities route is missing and says what it cannot do', async () => {
    server = await restOnlyDashboard();
    const warnings: string[] = [];
    const client = createDashboardClient(testSettings(server.url, { token: TOKEN }), {
      onWarning: (m) => warnings.push(m),
    });
    const live = await client.readLive();
    expect(live.capabilities).toEqual({
      surface: 'rest',
      canUnignore: false,
      canIgnore: false,
      canIgnoreCore: false,
      queueThreshold: 200,
      siteFlags: 'read-write',
    });
    expect(live.sites.map((s) => [s.id, s.url, s.status])).toEqual([
      [1, 'https://a.example.test/', 'connected'],
      [2, 'https://b.example.test/', 'suspended'],
    ]);
    expect(live.pending.map((p) => `${p.siteId}:${p.kind}:${p.slug}:${p.to}`)).toEqual([
      '1:core:wordpress:6.8.3',
      '1:plugin:akismet/akismet.php:5.3.7',
      '2:theme:astra:4.7',
    ]);
    expect(live.ignores.map((i) => `${i.siteId}:${i.slug}:${i.origin}`)).toEqual([
      '1:hello/hello.php:global',
      '1:woo/woo.php:site',
      '2:hello/hello.php:global',
    ]);
    expect(warnings.join('\n')).toContain('cannot unignore');
    await expect(
      client.setIgnored({ siteId: 1, kind: 'plugin', direction: 'unignore', slugs: ['woo/woo.php'] }),
    ).rejects.toMatchObject({
      code: 'UNSUPPORTED',
    });
    // Catalogue probe, a credential-free look at REST v2 (is it there at all?), then sites,
    // updates, global ignores and one ignored listing per site (the site records give the flags).
    expect(client.stats().requests).toBe(7);
    const [, restProbe] = server.requests;
    expect(restProbe?.url).toBe('/wp-json/svc/v2/sites');
    expect(restProbe?.headers.authorization).toBeUndefined();
    await client.close();
  });

  it('runUpdates: a REST API without the per-site run routes is a clear UNSUPPORTED', async () => {
    server = await restOnlyDashboard();
    const client = createDashboardClient(testSettings(server.url, { token: TOKEN }));
    await expect(
      client.runUpdates({ siteIds: [1], items: [{ kind: 'plugin', slug: 'akismet/akismet.php' }] }),
    ).rejects.toMatchObject({ code: 'UNSUPPORTED', message: expect.stringContaining('/update/plugins') });
    const run = server.requests.find((r) => r.method === 'POST');
    expect(run?.url).toBe('/wp-json/svc/v2/updates/1/update/plugins');
    expect(JSON.parse(run?.body ?? '{}')).toEqual({ slug: 'akismet/akismet.php' });
    await client.close();
  });

  it('without a REST key, a missing abilities route is a clear NOT_FOUND', async () => {
    server = await restOnlyDashboard();
    const client = createDashboardClient(testSettings(server.url));
    await expect(client.readLive()).rejects.toMatchObject({
      code: 'NOT_FOUND',
      hint: expect.stringContaining('SVC_TOKEN'),
    });
    await client.close();
  });
});
