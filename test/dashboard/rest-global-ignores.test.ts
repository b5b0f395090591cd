import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createDashboardClient } from '../../src/dashboard/index.js';
import type { SandboxProfile } from '../../src/sandbox/index.js';
import { loadSettings } from '../../src/settings/index.js';
import { fastClientEnv, sandboxPer } from '../helpers/sandbox.js';
import { start } from '../sandbox/helpers.js';

/**
 * MainWP 6.1.2's per-site REST ignored listing holds the site's own ignores only (quirk
 * restSiteIgnoredOmitsGlobal); the spec's holds the global ones too. Either way every site's
 * live ignores include the global lists, marked global, as on the abilities surface.
 */
describe.each<SandboxProfile>(['compat-6.1', 'spec'])('global ignores on the REST path (%s)', (profile) => {
  const sandbox = sandboxPer('suite', () => start({ profile, surfaces: { abilities: false } }));

  it('lists the global theme ignore on every site, as global', async () => {
    const { settings } = loadSettings({
      env: fastClientEnv(sandbox),
      cwd: '/nonexistent-cwd',
      fs,
      homeDir: '/nonexistent-home',
    });
    const dashboard = createDashboardClient(settings);
    try {
      const live = await dashboard.readLive();
      expect(live.capabilities.surface).toBe('rest');
      const astra = live.ignores.filter((i) => i.kind === 'theme' && i.slug === 'astra');
      expect(astra.map((i) => [i.siteId, i.origin]).sort()).toEqual([
        [1, 'global'],
        [2, 'global'],
        [3, 'global'],
      ]);
      const own = live.ignores.filter((i) => i.origin === 'site').map((i) => `${i.siteId}:${i.slug}`);
      expect(own).toEqual(['2:elementor/elementor.php']);
    } finally {
      await dashboard.close();
    }
  });
});
