/**
 * A poisoned ignored listing (MainWP 6.1.2: a REST per-slug ignore stored under slug 0 makes
 * list-ignored-updates-v1 answer 500 ability_invalid_output): plan reads the other sites' ignores
 * site by site, plans them, and names the broken site, changing nothing on it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateFleet, startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { rigFleet } from '../helpers/rig-fleet.js';
import { fastClientEnv, sandboxPer } from '../helpers/sandbox.js';
import { client } from '../sandbox/helpers.js';

const DESIRED = `version: 1
updates:
  - name: patches
    sites: [all]
    kinds: [plugins, themes]
    max: patch
`;

describe('a poisoned ignored listing', () => {
  const sb = sandboxPer('test', () => startSandbox({ fleet: rigFleet(), namespace: 'mainwp' }));

  it('plans the other sites and names the broken one, planning nothing on it', async () => {
    const api = client(sb, 'mainwp');
    expect((await api.rest('POST', 'updates/2/ignore/plugins', { slug: 'akismet/akismet.php' })).status).toBe(
      200,
    );
    const dir = mkdtempSync(join(tmpdir(), 'svc-broken-'));
    writeFileSync(join(dir, 'svc-gitops.yaml'), DESIRED);
    const r = await cli(['plan'], { env: fastClientEnv(sb, { SVC_RETRY_MAX_RETRIES: '1' }), cwd: dir });
    expect(r.stderr).not.toMatch(/HTTP_ERROR/);
    expect(r.code).toBe(0);
    // Sites 1 and 3: akismet and twentytwentyone each; site 2 is unreadable.
    expect(r.stdout).toContain('4 to update on 2 sites');
    expect(r.stdout).toContain('ignored_entry_broken');
    expect(r.stdout).toMatch(
      /site 2[^\n]*could not be read|could not be read[^\n]*site 2|127\.0\.0\.1:8182[^\n]*could not be read/,
    );
    expect(r.stdout).toContain('slug 0');
  });

  it('keeps global ignores global when a broken site lists none of them', async () => {
    // Seed 7 gives site 4 its own jetpack ignore beside the global one: listed twice, which only
    // reads as one global entry while jetpack is on every site whose listing was read.
    const fleet = generateFleet({ sites: 30, pendingPerSite: 3, ignoredPerSite: 2, seed: 7 });
    const all = (slug: string) => ({ slug, name: slug, versions: 'all' as const });
    fleet.globalIgnores.plugins.push({ slug: 'jetpack/jetpack.php', name: 'Jetpack', versions: 'all' });
    // MainWP stores a slug written as an integer under an integer key, which breaks its listing.
    fleet.sites[16]!.ignores.themes.push(all('123'));
    const broken = await startSandbox({ fleet, profile: 'compat-6.1' });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'svc-broken-'));
      writeFileSync(join(dir, 'svc-gitops.yaml'), 'version: 1\n');
      const r = await cli(['plan'], { env: fastClientEnv(broken, { SVC_RETRY_MAX_RETRIES: '1' }), cwd: dir });
      expect(r.stderr).not.toMatch(/INCOMPLETE_READ|listed twice/);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('ignored_entry_broken');
    } finally {
      await broken.close();
    }
  });
});
