import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { fastClientEnv, sandboxControl, sandboxPer } from '../helpers/sandbox.js';
import { REPO, startDemo, tempDir } from './helpers.js';

/**
 * The dashboard lists what its last sync saw: an update made on a site outside the dashboard
 * stays listed until a sync. `plan --refresh` syncs first, so the plan no longer holds it.
 */
describe.each([
  { name: 'abilities API (sync-sites-v1)', options: {} },
  // A REST-only dashboard that lowered its /batch limit to 2: chunks of 100 are refused with 413.
  { name: 'REST only (/batch, limit 2)', options: { surfaces: { abilities: false }, batchLimit: 2 } },
])('plan --refresh through the $name', ({ options }) => {
  const sandbox = sandboxPer('test', () => startDemo('compat-6.1', options));

  it('picks up an update made outside the dashboard', async () => {
    const cwd = tempDir('svc-gitops-refresh-');
    copyFileSync(join(REPO, 'examples/minimal.yaml'), join(cwd, 'svc-gitops.yaml'));
    const env = { ...fastClientEnv(sandbox), HOME: tempDir() };
    const control = sandboxControl(sandbox);
    await control('POST', 'outside-update', { site: 1, kind: 'plugin', slug: 'akismet/akismet.php' });
    const targets = ['--target', '1', '2', '3', '4', '5'];
    const stale = await cli(['plan', ...targets], { env, cwd });
    expect(stale.code, stale.stderr).toBe(0);
    expect(stale.stdout).toMatch(
      /site 1 [^\n]*\n(?: {2}[^\n]*\n)*? {2}~ update +plugin akismet\/akismet\.php/,
    );
    await control('POST', 'stats/reset');
    const refreshed = await cli(['plan', '--refresh', ...targets], { env, cwd });
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(refreshed.stdout).not.toMatch(
      /site 1 [^\n]*\n(?: {2}[^\n]*\n)*? {2}~ update +plugin akismet\/akismet\.php/,
    );
    const stats = (await control('GET', 'stats')) as {
      abilities: Record<string, number>;
      requests: Record<string, number>;
    };
    if (options.surfaces) {
      // 5 sites at a limit of 2: 100 → 413, 50 → 413, … 3 → 413, then 2 + 2 + 1.
      expect(stats.requests['POST /batch']).toBeGreaterThan(3);
      expect(stats.abilities['svc/sync-sites-v1']).toBeUndefined();
    } else {
      expect(stats.abilities['svc/sync-sites-v1']).toBe(1);
    }
  });
});
