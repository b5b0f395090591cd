import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, fetch } from 'undici';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { tempDirForSuite } from '../helpers/temp-dir.js';
import { basic, client, smallFleet, start } from './helpers.js';

const dir = tempDirForSuite('svc-sandbox-test-');

describe('sandbox control routes', () => {
  it('reports the state with all four ignore mechanisms and changes pending updates by hand', async () => {
    const sb = await start();
    const api = client(sb);
    try {
      const state = (await api.control('GET', 'state')).body;
      expect(state.global_ignores.themes).toEqual([{ slug: 'astra', name: 'Astra', versions: 'all' }]);
      expect(state.sites[1].ignores.plugins[0].slug).toBe('elementor/elementor.php');
      expect(state.sites[0].ignore_flags).toEqual({ core: false, plugins: false, themes: false });
      expect(state.sites[0].pending).toHaveLength(5);
      const added = await api.control('POST', 'pending', {
        site: 'two.example.test',
        kind: 'theme',
        slug: 'astra',
        from: '4.0.0',
        to: '4.1.0',
      });
      expect(added.body.changed).toBe(true);
      const removed = await api.control('DELETE', 'pending', {
        site: 1,
        kind: 'plugin',
        slug: 'akismet/akismet.php',
      });
      expect(removed.body.changed).toBe(true);
      const after = (await api.control('GET', 'state')).body;
      expect(
        after.sites[0].plugins.find((p: { slug: string }) => p.slug === 'akismet/akismet.php'),
      ).toMatchObject({ version: '5.3.7', update: null });
      expect(after.sites[1].themes).toEqual([
        { slug: 'astra', name: 'Astra', version: '4.0.0', update: '4.1.0' },
      ]);
      const unknown = await api.control('POST', 'pending', {
        site: 99,
        kind: 'plugin',
        slug: 'x/x.php',
        to: '1',
      });
      expect(unknown.status).toBe(404);
      await api.ability('list-sites-v1');
      const stats = (await api.control('GET', 'stats')).body;
      expect(stats.requests['GET /abilities/:name/run']).toBe(1);
      expect(stats.response_bytes).toBeGreaterThan(0);
      await api.control('POST', 'stats/reset');
      expect((await api.control('GET', 'stats')).body.requests_total).toBe(0);
    } finally {
      await sb.close();
    }
  });

  it('persists state to a JSON file so a restarted sandbox sees earlier changes', async () => {
    const statePath = join(dir, 'state.json');
    const first = await startSandbox({ fleet: smallFleet(), statePath });
    await client(first).ability('update-site-core-v1', { site_id_or_domain: 1 }, { method: 'POST' });
    await first.close();
    expect(JSON.parse(readFileSync(statePath, 'utf8')).format).toBe('svc-sandbox-state');
    const second = await startSandbox({ fleet: smallFleet(), statePath });
    try {
      const res = await client(second).ability('get-site-updates-v1', {
        site_id_or_domain: 1,
        types: ['core'],
      });
      expect(res.body.updates).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it('persists queued jobs and the job clock; a restart never reuses a job id', async () => {
    const statePath = join(dir, 'jobs-state.json');
    const first = await startSandbox({ fleet: smallFleet(), statePath, queueThreshold: 1 });
    const queued = await client(first).ability('run-updates-v1', {}, { method: 'POST' });
    await first.close();
    const second = await startSandbox({ fleet: smallFleet(), statePath, queueThreshold: 1 });
    try {
      const api = client(second);
      const status = await api.ability('get-batch-job-status-v1', { job_id: queued.body.job_id });
      expect(status.body).toMatchObject({ status: 'completed', processed: 3, succeeded: 5 });
      const again = await api.ability('run-updates-v1', {}, { method: 'POST' });
      expect(again.body.job_id).not.toBe(queued.body.job_id);
    } finally {
      await second.close();
    }
  });

  it('replaces the namespace in paths, ability names and error codes', async () => {
    const sb = await start({ namespace: 'acme' });
    const api = client(sb, 'acme');
    try {
      expect(sb.env().SVC_NAMESPACE).toBe('acme');
      expect((await api.rest('GET', 'updates/1')).body.success).toBe(1);
      expect((await api.raw('GET', '/wp-json/svc/v2/updates/1')).status).toBe(404);
      const notFound = await api.ability(
        'update-site-core-v1',
        { site_id_or_domain: 99 },
        { method: 'POST' },
      );
      expect(notFound.body.code).toBe('acme_site_not_found');
      const catalogue = await api.raw('GET', '/wp-json/wp-abilities/v1/abilities', {
        headers: { authorization: api.admin },
      });
      expect(catalogue.body.every((a: { name: string }) => a.name.startsWith('acme/'))).toBe(true);
    } finally {
      await sb.close();
    }
  });

  it('serves HTTPS with a self-signed certificate (rejected by default, accepted when trusted)', async () => {
    const sb = await start({ tls: true });
    try {
      expect(sb.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(sb.env()).toMatchObject({ SVC_SKIP_SSL_VERIFY: 'true' });
      expect(sb.env().SVC_ALLOW_HTTP).toBeUndefined();
      const url = `${sb.url}/wp-json/wp-abilities/v1/abilities/svc/list-sites-v1/run`;
      const headers = { authorization: basic(sb.credentials.username, sb.credentials.applicationPassword) };
      await expect(fetch(url, { headers })).rejects.toThrow();
      const trusting = new Agent({ connect: { ca: sb.certificatePem ?? '' } });
      const res = await fetch(url, { headers, dispatcher: trusting });
      expect(res.status).toBe(200);
      await trusting.close();
    } finally {
      await sb.close();
    }
  });

  it('can emulate a dashboard without the abilities API, or with REST v2 switched off', async () => {
    const restOnly = await start({ surfaces: { abilities: false } });
    try {
      const api = client(restOnly);
      const missing = await api.ability('list-sites-v1');
      expect([missing.status, missing.body.code]).toEqual([404, 'rest_no_route']);
      const sites = await api.rest('GET', 'sites');
      expect(sites.body.data.map((s: { id: string; suspended: string }) => [s.id, s.suspended])).toEqual([
        ['1', '0'],
        ['2', '0'],
        ['3', '0'],
      ]);
    } finally {
      await restOnly.close();
    }
    const abilitiesOnly = await start({ surfaces: { rest: false } });
    try {
      expect((await client(abilitiesOnly).rest('GET', 'updates/1')).body.code).toBe('rest_no_route');
      expect((await client(abilitiesOnly).ability('list-sites-v1')).status).toBe(200);
    } finally {
      await abilitiesOnly.close();
    }
  });

  it('prints plain-HTTP loopback settings by default', async () => {
    const sb = await start();
    try {
      expect(sb.env()).toEqual({
        SVC_URL: sb.url,
        SVC_USER: 'admin',
        SVC_APP_PASSWORD: 'sand BOX1 demo PASS word 2026',
        // The form MainWP's UI shows the key in: the stored pair without its cs_/ck_ prefixes.
        SVC_TOKEN: sb.credentials.token.replace(/^cs_/, '').replace('==ck_', '=='),
        SVC_ALLOW_HTTP: 'true',
      });
    } finally {
      await sb.close();
    }
  });
});
