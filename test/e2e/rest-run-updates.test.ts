import * as fs from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboardClient } from '../../src/dashboard/index.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { loadSettings } from '../../src/settings/index.js';
import { cli } from '../helpers/cli.js';
import { PROFILES, resetStats, sandboxEnv, sandboxStats, setFaults, startDemo, tempDir } from './helpers.js';

/**
 * Running selected updates on a dashboard that only offers REST v2 (no abilities API). The spec's
 * per-site run routes (`/updates/{id}/update/wp|plugins|themes|translations` with `slug`) exist
 * in both the spec and the shipped 6.1 dashboard (dashboard-facts §6.3), so both profiles run
 * exactly the planned items; what differs is only how failures are worded.
 */
describe.each(PROFILES)('runUpdates through REST v2 only (%s sandbox)', (profile) => {
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    sandbox = await startDemo(profile, { surfaces: { abilities: false } });
  });
  afterAll(() => sandbox.close());

  function client() {
    const env = { ...sandboxEnv(sandbox, tempDir()), SVC_RATE_LIMIT: '0' };
    const { settings } = loadSettings({ env, cwd: '/nonexistent-cwd', fs, homeDir: '/nonexistent-home' });
    return createDashboardClient(settings);
  }

  it('runs exactly the planned items and reports every other outcome per item', async () => {
    const dashboard = client();
    try {
      const before = await dashboard.readLive();
      expect(before.capabilities.surface).toBe('rest');
      await resetStats(sandbox);
      const result = await dashboard.runUpdates({
        siteIds: [1, 23, 24, 999],
        items: [
          { kind: 'core', slug: 'wordpress' },
          { kind: 'plugin', slug: 'akismet/akismet.php' },
          { kind: 'plugin', slug: 'wordfence/wordfence.php' },
          { kind: 'theme', slug: 'astra' },
        ],
      });
      const updated = result.updated.map((u) => `${u.siteId}:${u.kind}:${u.slug}:${u.from}->${u.to}`).sort();
      expect(updated).toEqual([
        '1:core:wordpress:6.8.1->6.8.3',
        '1:plugin:akismet/akismet.php:5.3.6->5.3.7',
        '23:theme:astra:4.11.1->4.11.3',
      ]);
      const errors = new Map(result.errors.map((e) => [`${e.siteId}:${e.kind}:${e.slug}`, e]));
      // Not pending: the dashboard ran nothing for it, and says so.
      expect(errors.get('1:plugin:wordfence/wordfence.php')?.code).toBe('not_updated');
      expect(errors.get('1:theme:astra')?.code).toBe('not_updated');
      expect(errors.get('23:core:wordpress')?.code).toBe('not_updated');
      // The child site's own failure, with its text.
      expect(errors.get('23:plugin:wordfence/wordfence.php')?.code).toBe('update_failed');
      // Offline site: the route's 500 becomes per-item errors, not an exception.
      expect(errors.get('24:plugin:akismet/akismet.php')?.code).toBe(
        'svc_rest_upgrade_plugins_of_site_error',
      );
      expect(errors.get('24:core:wordpress')).toBeDefined();
      // Unknown site: 404 per item.
      expect(errors.get('999:plugin:akismet/akismet.php')?.code).toBe('svc_rest_invalid_site_id');
      expect(result.errors).toHaveLength(errors.size);
      expect(result.jobId).toBeUndefined();

      // Only the per-site, per-kind routes ran; never an update-everything route.
      const stats = await sandboxStats(sandbox);
      const routes = Object.keys(stats.requests).filter((r) => r.startsWith('POST'));
      // Then one sync of the sites that ran an update, so the dashboard's list shows them done.
      expect(routes.sort()).toEqual([
        'POST /batch',
        'POST /updates/:site/update/plugins',
        'POST /updates/:site/update/themes',
        'POST /updates/:site/update/wp',
      ]);

      // Unplanned items are untouched; the planned ones left the pending list.
      const after = await dashboard.readLive();
      const pending = (siteId: number) =>
        after.pending.filter((p) => p.siteId === siteId).map((p) => `${p.kind}:${p.slug}`);
      expect(pending(1)).toEqual([
        'plugin:woocommerce/woocommerce.php',
        'plugin:wordpress-seo/wp-seo.php',
        'theme:twentytwentyfive',
      ]);
      expect(pending(23)).toEqual(['plugin:elementor/elementor.php', 'plugin:wordfence/wordfence.php']);
    } finally {
      await dashboard.close();
    }
  });

  it('keeps what other sites ran when one site hits a run-wide failure (rate limit)', async () => {
    const dashboard = client();
    try {
      const live = await dashboard.readLive();
      const plugins = live.pending.filter((p) => p.kind === 'plugin' && ![1, 23, 24].includes(p.siteId));
      const [ran, limited] = [...new Set(plugins.map((p) => p.siteId))];
      if (ran === undefined || limited === undefined)
        throw new Error('demo fleet: two sites with plugins pending');
      const items = plugins
        .filter((p) => p.siteId === ran || p.siteId === limited)
        .map((p) => ({ kind: 'plugin' as const, slug: p.slug }));
      await setFaults(sandbox, [{ kind: 'rate-limit', route: `/updates/${limited}/update` }]);
      const result = await dashboard.runUpdates({ siteIds: [ran, limited], items });
      expect(result.updated.filter((u) => u.siteId === ran).length).toBeGreaterThan(0);
      const limitedErrors = result.errors.filter((e) => e.siteId === limited);
      expect(limitedErrors.length).toBeGreaterThan(0);
      expect(new Set(limitedErrors.map((e) => e.code))).toEqual(new Set(['RATE_LIMITED']));
      // Nothing ran at all: the run-wide failure is thrown, not turned into results.
      await expect(dashboard.runUpdates({ siteIds: [limited], items })).rejects.toMatchObject({
        code: 'RATE_LIMITED',
      });
    } finally {
      await setFaults(sandbox, []);
      await dashboard.close();
    }
  });

  it('still refuses per-item ignores through REST with a clear UNSUPPORTED', async () => {
    const dashboard = client();
    try {
      await expect(
        dashboard.setIgnored({
          siteId: 1,
          kind: 'plugin',
          direction: 'ignore',
          slugs: ['akismet/akismet.php'],
        }),
      ).rejects.toMatchObject({ code: 'UNSUPPORTED' });
    } finally {
      await dashboard.close();
    }
  });
});

const SECURITY_ONLY = `version: 1
ignores:
  unmanaged: keep
updates:
  - name: security
    sites: [all]
    kinds: [plugins]
    include: [akismet/akismet.php, wordfence/wordfence.php]
    max: minor
`;

describe.each(PROFILES)('apply through REST v2 only (%s sandbox)', (profile) => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startDemo(profile, { surfaces: { abilities: false } });
  });
  afterAll(() => sandbox.close());

  it('applies an update-only plan; the re-plan holds just the update that failed', async () => {
    const cwd = tempDir();
    fs.writeFileSync(join(cwd, 'svc-gitops.yaml'), SECURITY_ONLY);
    const env = { ...sandboxEnv(sandbox, tempDir()), SVC_RATE_LIMIT: '0' };
    const applied = await cli(['apply', '--auto-approve'], { env, cwd });
    // wordfence fails on tyrell by design of the demo fleet: exit 1 with that one failure.
    expect(applied.code, applied.stderr).toBe(1);
    expect(applied.stdout).toMatch(/15 done, 1 failed/);
    expect(applied.stdout).toContain('wordfence/wordfence.php 8.0.5 → 8.0.6 on https://tyrell.demo.test/');
    const replanned = await cli(['plan', '--format', 'json'], { env, cwd });
    expect(replanned.code, replanned.stderr).toBe(0);
    const plan = JSON.parse(replanned.stdout) as { actions: Array<{ site_id: number; slug: string }> };
    expect(plan.actions.map((a) => `${a.site_id}:${a.slug}`)).toEqual(['23:wordfence/wordfence.php']);
  });
});
