import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRollbackItems } from '../../src/dashboard/abilities/rollbacks.js';
import { createDashboardClient } from '../../src/dashboard/index.js';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import { loadSettings } from '../../src/settings/index.js';
import { pluginUpdateFleet } from '../e2e/helpers.js';
import { fastClientEnv, sandboxControl, sandboxPer } from '../helpers/sandbox.js';
import { client } from '../sandbox/helpers.js';

/**
 * `rollback_items` as MainWP 6.1.2 builds it (class/class-mainwp-updates-helper.php,
 * get_roll_items_updates_of_site: per kind a map from slug to the entry saved by
 * includes/rest-api/controller/version1/class-mainwp-rest-api-v1-helper.php), and what WordPress
 * 6.9's output check makes of it (wp-includes/abilities-api/class-wp-ability.php).
 */
describe('rollback_items', () => {
  it('reads the map MainWP sends, a list of entries, and the empty `[]`', () => {
    const entry = { name: 'Akismet', old_version: '5.3.6', version: '5.3.7', created: 1764300000 };
    expect(
      parseRollbackItems({
        rollback_items: {
          plugins: { 'akismet/akismet.php': entry, 'hello%2Fhello.php': { ...entry, version: '1.7.3' } },
          themes: [],
        },
      }),
    ).toEqual([
      { kind: 'plugin', slug: 'akismet/akismet.php', version: '5.3.7' },
      { kind: 'plugin', slug: 'hello/hello.php', version: '1.7.3' },
    ]);
    expect(
      parseRollbackItems({
        rollback_items: { plugins: [], themes: [{ slug: 'astra', version: '4.1', old_version: '4.0' }] },
      }),
    ).toEqual([{ kind: 'theme', slug: 'astra', version: '4.1' }]);
    // Nothing to hold without a version: skipped.
    expect(parseRollbackItems({ rollback_items: { plugins: { 'a/a.php': { name: 'A' } } } })).toEqual([]);
  });

  describe('against the sandbox (the shipped profile)', () => {
    const sandbox = sandboxPer('test', async () => startSandbox({ fleet: parseFleet(pluginUpdateFleet(2)) }));
    const api = client(sandbox);

    it('a site with a rollback of its pending version answers 500 ability_invalid_output; the reader says a rollback is there', async () => {
      await sandboxControl(sandbox)('PUT', 'health-faults', [
        { site: 2, item: 'plugin:akismet/akismet.php', version: '5.3.7', rollback: true },
      ]);
      const ran = await api.ability(
        'run-updates-v1',
        { site_ids_or_domains: [1, 2], types: ['plugins'] },
        { method: 'POST' },
      );
      expect(ran.status).toBe(200);
      expect(ran.body.errors).toHaveLength(1);

      const clean = await api.ability('get-site-updates-v1', { site_id_or_domain: 1 });
      expect(clean.status).toBe(200);
      expect(clean.body.rollback_items).toEqual({ plugins: [], themes: [] });
      const rolled = await api.ability('get-site-updates-v1', { site_id_or_domain: 2 });
      expect(rolled.status).toBe(500);
      expect(rolled.body).toEqual({
        code: 'ability_invalid_output',
        message:
          'Ability "svc/get-site-updates-v1" has invalid output. Reason: output[rollback_items][plugins] is not of type array.',
        data: { status: 500 },
      });

      const { settings } = loadSettings({
        env: fastClientEnv(sandbox),
        cwd: '/nonexistent-cwd',
        fs,
        homeDir: '/nonexistent-home',
      });
      const dashboard = createDashboardClient(settings);
      try {
        const read = await dashboard.readRollbacks([1, 2]);
        expect(read?.map(({ siteId, items, unnamed }) => ({ siteId, items, unnamed }))).toEqual([
          { siteId: 1, items: [], unnamed: undefined },
          { siteId: 2, items: [], unnamed: true },
        ]);
      } finally {
        await dashboard.close();
      }

      // A newer release replaces the pending version: the old rollback is no longer shown.
      await sandboxControl(sandbox)('POST', 'pending', {
        site: 2,
        kind: 'plugin',
        slug: 'akismet/akismet.php',
        to: '5.3.8',
      });
      const after = await api.ability('get-site-updates-v1', { site_id_or_domain: 2 });
      expect(after.status).toBe(200);
      expect(after.body.rollback_items).toEqual({ plugins: [], themes: [] });
    });
  });
});
