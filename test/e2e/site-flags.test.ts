import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { fastClientEnv, sandboxControl, sandboxPer } from '../helpers/sandbox.js';
import { REPO, startDemo, tempDir } from './helpers.js';

/**
 * Demo site 18 (stark) has astra 4.11.1 → 4.11.3 pending behind its "ignore every theme update"
 * flag, which no listing shows. The plan notes the hidden update, the desired state clears the
 * flag (`site_flags`), apply clears it through the site edit route, and the next plan updates astra.
 */
describe('site-wide ignore flags', () => {
  const sandbox = sandboxPer('test', () => startDemo('compat-6.1'));
  const setup = (extra = '') => {
    const cwd = tempDir('svc-gitops-flags-');
    const base = readFileSync(join(REPO, 'examples/minimal.yaml'), 'utf8');
    writeFileSync(join(cwd, 'svc-gitops.yaml'), `${base}${extra}`);
    return { cwd, env: { ...fastClientEnv(sandbox), HOME: tempDir() } };
  };
  const CLEAR = `    - sites: [stark.demo.test]\n      site_flags: { themes: false }\n`;

  it('notes the hidden update; clearing the flag in the desired state lets the next plan update it', async () => {
    const before = setup();
    const first = await cli(['plan', '--target', '18'], before);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(
      'pending theme astra 4.11.1 → 4.11.3 is hidden by the site-wide flag ignoring every theme update; clear the flag with site_flags in an ignore rule',
    );
    expect(first.stdout).not.toMatch(/~ update +theme astra/);

    // The rule goes under ignores.rules (minimal.yaml ends with its updates list).
    const yaml = readFileSync(join(before.cwd, 'svc-gitops.yaml'), 'utf8').replace(
      '      plugins: [woocommerce/woocommerce.php]\n',
      `      plugins: [woocommerce/woocommerce.php]\n${CLEAR}`,
    );
    writeFileSync(join(before.cwd, 'svc-gitops.yaml'), yaml);
    const clearing = await cli(['plan', '--target', '18'], before);
    expect(clearing.code, clearing.stderr).toBe(0);
    expect(clearing.stdout).toMatch(/- unignore +theme \* +\(site-wide flag cleared by the desired state/);
    expect(clearing.stdout).toContain('this plan clears the flag, so the next plan can update it');

    const applied = await cli(['apply', '--auto-approve', '--target', '18'], before);
    expect(applied.code, applied.stderr + applied.stdout).toBe(0);
    const state = (await sandboxControl(sandbox)('GET', 'state')) as {
      sites: Array<{ id: number; ignore_flags: Record<string, boolean> }>;
    };
    expect(state.sites.find((s) => s.id === 18)?.ignore_flags.themes).toBe(false);

    const next = await cli(['plan', '--target', '18'], before);
    expect(next.stdout).toMatch(/~ update +theme astra 4\.11\.1 → 4\.11\.3/);
    expect(next.stdout).not.toContain('hidden by the site-wide flag');
  });

  it('clears a flag on a REST-only dashboard (the site edit route), as on the abilities surface', async () => {
    const rest = await startDemo('compat-6.1', { surfaces: { abilities: false } });
    try {
      const cwd = tempDir('svc-gitops-flags-');
      const base = readFileSync(join(REPO, 'examples/minimal.yaml'), 'utf8').replace(
        '      plugins: [woocommerce/woocommerce.php]\n',
        `      plugins: [woocommerce/woocommerce.php]\n${CLEAR}`,
      );
      writeFileSync(join(cwd, 'svc-gitops.yaml'), base);
      const env = { ...fastClientEnv(rest), HOME: tempDir() };
      const applied = await cli(['apply', '--auto-approve', '--target', '18'], { cwd, env });
      expect(applied.stderr).toContain('(rest)');
      expect(applied.stdout + applied.stderr).toMatch(/1 done, 0 failed/);
      const state = (await sandboxControl(rest)('GET', 'state')) as {
        sites: Array<{ id: number; ignore_flags: Record<string, boolean> }>;
      };
      expect(state.sites.find((s) => s.id === 18)?.ignore_flags.themes).toBe(false);
    } finally {
      await rest.close();
    }
  });

  it('says the flags cannot be seen without a REST API key', async () => {
    const { cwd, env } = setup();
    const run = await cli(['plan', '--target', '18'], { cwd, env: { ...env, SVC_TOKEN: '' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      'site-wide flags (ignore every core, plugin or theme update of a site) cannot be read without a REST API key',
    );
  });
});

/**
 * A core update behind the site-wide core flag: no listing and no site ability shows its
 * version, so the plan says the flag hides whatever core update there is, on sites where a
 * policy would update core; once the desired state clears the flag, the update is planned.
 */
describe('the site-wide core flag', () => {
  const FLEET = `sites:
  - id: 1
    url: https://flagged.demo.test/
    core: 6.8.1 -> 6.8.3
    ignore_flags: [core]
  - id: 2
    url: https://other.demo.test/
    core: 6.8.1 -> 6.8.3
    ignore_flags: [core]
`;
  const sandbox = sandboxPer('test', () => startSandbox({ fleet: parseFleet(FLEET) }));
  const POLICY = `version: 1
updates:
  - {name: core, sites: [flagged.demo.test], kinds: [core], max: minor}
approval: {core: false}
`;
  const NOTE =
    'core updates are hidden by the site-wide flag ignoring every core update: the dashboard shows no pending core version behind it, so whether one is pending is unknown';

  it('is noted where a policy takes core, and clearing it lets the next plan update core', async () => {
    const cwd = tempDir('svc-gitops-core-flag-');
    const env = { ...fastClientEnv(sandbox), HOME: tempDir(), SVC_SAFE_MODE: 'false' };
    writeFileSync(join(cwd, 'svc-gitops.yaml'), POLICY);
    const first = await cli(['plan', '--format', 'json'], { cwd, env });
    expect(first.code, first.stderr).toBe(0);
    const plan = JSON.parse(first.stdout) as {
      actions: unknown[];
      notes: Array<{ kind: string; message: string; site_ids: number[] }>;
    };
    expect(plan.actions).toEqual([]);
    const hidden = plan.notes.filter((note) => note.kind === 'hidden-update');
    // Site 2 has the flag too, but no policy would update its core: nothing is hidden from one.
    expect(hidden.map((note) => [note.site_ids, note.message])).toEqual([
      [[1], `${NOTE}; clear the flag with site_flags in an ignore rule to let policies update core`],
    ]);

    writeFileSync(
      join(cwd, 'svc-gitops.yaml'),
      `${POLICY}ignores:\n  rules:\n    - sites: [flagged.demo.test]\n      site_flags: { core: false }\n`,
    );
    const clearing = await cli(['plan'], { cwd, env });
    expect(clearing.code, clearing.stderr).toBe(0);
    expect(clearing.stdout).toMatch(/- unignore +core +\(site-wide flag cleared by the desired state/);
    expect(clearing.stdout).toContain(
      `${NOTE}; this plan clears the flag, so the next plan shows a pending core update, if any`,
    );
    const applied = await cli(['apply', '--auto-approve'], { cwd, env });
    expect(applied.code, applied.stderr + applied.stdout).toBe(0);

    const next = await cli(['plan'], { cwd, env });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toMatch(/~ update +core +6\.8\.1 → 6\.8\.3/);
    expect(next.stdout).not.toContain('hidden by the site-wide flag');
  });
});
