import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createDashboardClient } from '../../src/dashboard/index.js';
import { loadSettings } from '../../src/settings/index.js';
import { fastClientEnv, sandboxPer } from '../helpers/sandbox.js';
import { client, smallFleet, start } from './helpers.js';

/** check-site-v1 as the shipped dashboard's catalogue lists it (annotations, input, output). */
const SHIPPED = {
  annotations: { readonly: false, destructive: false, idempotent: true },
  required: ['site_id_or_domain'],
  output_schema: {
    type: 'object',
    properties: {
      site_id: { type: 'integer' },
      response_time: { type: 'number' },
      checked: { type: 'boolean' },
      site: { type: 'object' },
      status: {
        type: 'object',
        properties: {
          online: { type: 'boolean' },
          http_code: { type: 'integer' },
          response_time: { type: 'number' },
        },
      },
    },
  },
};

describe('check-site-v1 and health faults', () => {
  const sb = sandboxPer('test', () => start({ fleet: smallFleet() }));
  const api = client(sb);
  const check = (site: number | string) =>
    api.ability('check-site-v1', { site_id_or_domain: site }, { method: 'POST' });

  it('is in the catalogue with the shipped shape: POST (idempotent write), site_id_or_domain required', async () => {
    const listed = await api.raw('GET', '/wp-json/wp-abilities/v1/abilities/svc/check-site-v1', {
      headers: { authorization: api.admin },
    });
    expect(listed.status).toBe(200);
    expect(listed.body.meta.annotations).toMatchObject(SHIPPED.annotations);
    expect(listed.body.output_schema).toEqual(SHIPPED.output_schema);
    expect(listed.body.input_schema.required).toEqual(SHIPPED.required);
    expect((await api.ability('check-site-v1', { site_id_or_domain: 1 })).status).toBe(405);
  });

  it('reports a connected site online with 200 and its usual time, an offline one as offline', async () => {
    const one = await check(1);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ site_id: 1, checked: true, status: { online: true, http_code: 200 } });
    expect(one.body.response_time).toBe(one.body.status.response_time);
    expect((await check('three.example.test')).body.status).toMatchObject({ online: false, http_code: 0 });
    expect((await check(99)).status).toBe(403);
  });

  it('a health fault breaks the site once the named update ran, and not before', async () => {
    const set = await api.control('PUT', 'health-faults', [
      { site: 1, item: 'plugin:akismet/akismet.php', response_time: 4.2 },
    ]);
    expect(set.status).toBe(200);
    expect(set.body.rules).toEqual([
      {
        site: 1,
        item: 'plugin:akismet/akismet.php',
        version: '5.3.7',
        online: false,
        httpCode: 500,
        responseTime: 4.2,
      },
    ]);
    expect((await check(1)).body.status.online).toBe(true);
    await api.ability(
      'run-updates-v1',
      { site_ids_or_domains: [1], types: ['plugins'], specific_items: ['akismet/akismet.php'] },
      { method: 'POST' },
    );
    expect((await check(1)).body.status).toEqual({ online: false, http_code: 500, response_time: 4.2 });
  });

  it('refuses rules it cannot apply, naming the rule', async () => {
    const bad = await api.control('PUT', 'health-faults', [
      { site: 1, item: 'plugin:classic-editor/classic-editor.php' },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(
      'rule 0: no version given and no update of plugin:classic-editor/classic-editor.php is pending on site 1',
    );
    expect((await api.control('PUT', 'health-faults', [{ site: 42, item: 'core' }])).body.message).toContain(
      'site must name',
    );
  });

  it('the client reads it: one call per site, results in the order asked, errors per site', async () => {
    const { settings } = loadSettings({
      env: fastClientEnv(sb),
      cwd: '/nonexistent-cwd',
      fs,
      homeDir: '/nonexistent-home',
    });
    const dashboard = createDashboardClient(settings);
    try {
      const counted: Array<[number, number]> = [];
      const readings = await dashboard.checkSites([3, 1, 99], {
        onProgress: (done, total) => counted.push([done, total]),
      });
      expect(counted).toEqual([
        [1, 3],
        [2, 3],
        [3, 3],
      ]);
      expect(readings.map((r) => [r.siteId, r.online, r.httpCode])).toEqual([
        [3, false, 0],
        [1, true, 200],
        [99, false, 0],
      ]);
      expect(readings[2]?.error).toMatch(/site_not_found|No site found/);
    } finally {
      await dashboard.close();
    }
  });
});
