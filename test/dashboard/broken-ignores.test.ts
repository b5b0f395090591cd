/**
 * A poisoned ignored listing (MainWP 6.1.2: a REST per-slug ignore stored under slug 0 makes
 * list-ignored-updates-v1 answer 500 ability_invalid_output): plan reads the other sites' ignores
 * site by site and the broken site's kind by kind, plans all it can, and withholds (naming the
 * site and the entry) only what the broken entry may concern; apply refuses such a write.
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

const WITH_IGNORES = `${DESIRED}ignores:
  rules:
    - sites: [2]
      plugins: [hello.php]
      themes: [twentytwentyfive]
`;

async function plan(sandbox: Parameters<typeof fastClientEnv>[0], desired: string) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-broken-'));
  writeFileSync(join(dir, 'svc-gitops.yaml'), desired);
  return cli(['plan'], { env: fastClientEnv(sandbox, { SVC_RETRY_MAX_RETRIES: '1' }), cwd: dir });
}

describe('a poisoned ignored listing', () => {
  const sb = sandboxPer('test', () => startSandbox({ fleet: rigFleet(), namespace: 'mainwp' }));

  it('plans the broken site too, withholding only the kind whose listing breaks', async () => {
    const api = client(sb, 'mainwp');
    expect((await api.rest('POST', 'updates/2/ignore/plugins', { slug: 'akismet/akismet.php' })).status).toBe(
      200,
    );
    const r = await plan(sb, WITH_IGNORES);
    expect(r.stderr).not.toMatch(/HTTP_ERROR/);
    expect(r.code, r.stderr).toBe(0);
    // Site 2: its theme ignore and theme update plan; its plugin ignore and plugin update do not.
    expect(r.stdout).toContain('1 to ignore, 0 to unignore, 5 to update on 3 sites');
    expect(r.stdout).toMatch(/ignore\s+theme twentytwentyfive/);
    expect(r.stdout).toContain(
      'ignored_entry_broken: its plugin ignores cannot be listed: entry 0 has a numeric slug (slug 0',
    );
    expect(r.stdout).toContain('remove that ignore in the dashboard UI');
    expect(r.stdout).toContain('(2 withheld: ignore plugin hello.php, update plugin akismet/akismet.php)');
    expect(r.stdout).toMatch(/withheld[^\n]*\[site 2 \(http:\/\/127\.0\.0\.1:8182\/\)\]/);
  });

  it('on REST only, withholds just the item the broken entry names', async () => {
    const rest = await startSandbox({
      fleet: rigFleet(),
      namespace: 'mainwp',
      surfaces: { abilities: false },
    });
    try {
      await client(rest, 'mainwp').rest('POST', 'updates/2/ignore/plugins', { slug: 'akismet/akismet.php' });
      const r = await plan(rest, WITH_IGNORES);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toMatch(/plugin 0\b/);
      // REST sets no per-slug ignores (cannot-ignore notes); only akismet on site 2 is withheld.
      expect(r.stdout).toContain('0 to ignore, 0 to unignore, 5 to update on 3 sites');
      expect(r.stdout).toContain('cannot-ignore: plugin hello.php');
      expect(r.stdout).toContain('its plugin ignores hold an entry under slug 0 named "akismet/akismet.php"');
      expect(r.stdout).toContain('(1 withheld: update plugin akismet/akismet.php)');
    } finally {
      await rest.close();
    }
  });

  it('refuses a saved plan whose writes the broken entry now withholds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-broken-'));
    writeFileSync(join(dir, 'svc-gitops.yaml'), DESIRED);
    const env = fastClientEnv(sb, { SVC_RETRY_MAX_RETRIES: '1' });
    expect((await cli(['plan', '--out', 'plan.json'], { env, cwd: dir })).code).toBe(0);
    await client(sb, 'mainwp').rest('POST', 'updates/2/ignore/plugins', { slug: 'hello.php' });
    const r = await cli(['apply', 'plan.json', '--auto-approve'], { env, cwd: dir });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      'the live state changed since the plan was made on 1 site(s): http://127.0.0.1:8182/',
    );
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
