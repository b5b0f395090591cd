import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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

  it('says the flags cannot be seen without a REST API key', async () => {
    const { cwd, env } = setup();
    const run = await cli(['plan', '--target', '18'], { cwd, env: { ...env, SVC_TOKEN: '' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      'site-wide flags (ignore every core, plugin or theme update of a site) cannot be read without a REST API key',
    );
  });
});
