import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fetch } from 'undici';
import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/run.js';
import { QUIRK_NAMES, startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { tempDirForSuite } from '../helpers/temp-dir.js';
import { smallFleet } from './helpers.js';

const dir = tempDirForSuite('svc-sandbox-cli-');

/** Runs `svc-gitops sandbox …` in-process with live access to its output. */
function launch(argv: string[], env: Record<string, string> = {}) {
  const controller = new AbortController();
  const out = { stdout: '', stderr: '' };
  const ctx: CliContext = {
    stdout: { write: (s: string) => (out.stdout += s) },
    stderr: { write: (s: string) => (out.stderr += s) },
    env: { NO_COLOR: '1', ...env },
    cwd: dir,
    fs,
    signal: controller.signal,
    now: () => new Date(),
  };
  const done = runCli(['sandbox', ...argv], ctx);
  return { out, done, stop: () => controller.abort() };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('svc-gitops sandbox', () => {
  it('serves the bundled demo fleet, prints the env lines, and stops cleanly when interrupted', async () => {
    const run = launch(['--profile', 'spec']);
    await until(() => run.out.stdout.includes('SVC_ALLOW_HTTP'));
    // The lines are meant for `eval`: let a real shell read them back.
    const names = ['SVC_URL', 'SVC_USER', 'SVC_APP_PASSWORD', 'SVC_TOKEN', 'SVC_ALLOW_HTTP'];
    const script = `${run.out.stdout}\nprintf '%s\\n' ${names.map((n) => `"$${n}"`).join(' ')}`;
    const values = execFileSync('sh', ['-c', script], { encoding: 'utf8' }).split('\n');
    const env = Object.fromEntries(names.map((name, index) => [name, values[index] ?? '']));
    expect(env.SVC_APP_PASSWORD).toBe('sand BOX1 demo PASS word 2026');
    expect(
      run.out.stdout
        .trim()
        .split('\n')
        .map((line) => line.split('=')[0]),
    ).toEqual(names);
    const auth = `Basic ${Buffer.from(`${env.SVC_USER}:${env.SVC_APP_PASSWORD}`).toString('base64')}`;
    const sites = await fetch(
      `${env.SVC_URL}/wp-json/wp-abilities/v1/abilities/svc/list-sites-v1/run?input[per_page]=100`,
      { headers: { authorization: auth } },
    );
    expect(((await sites.json()) as { total: number }).total).toBe(25);
    run.stop();
    expect(await run.done).toBe(0);
    expect(run.out.stderr).toContain('sandbox stopped');
    await expect(fetch(`${env.SVC_URL}/__sandbox/stats`)).rejects.toThrow();
  });

  it('prints its published demo credentials even in a shell that already holds them', async () => {
    // As after sourcing an earlier sandbox's lines: its password is in the environment.
    const again = launch(['--port', '0'], { SVC_APP_PASSWORD: 'sand BOX1 demo PASS word 2026' });
    await until(() => again.out.stdout.includes('SVC_ALLOW_HTTP'));
    expect(again.out.stdout).toContain("SVC_APP_PASSWORD='sand BOX1 demo PASS word 2026'");
    again.stop();
    expect(await again.done).toBe(0);
  });

  it('loads --fleet and --state relative to the working directory', async () => {
    writeFileSync(join(dir, 'fleet.yaml'), 'sites:\n  - url: https://only.example.test/\n');
    const run = launch(['--fleet', 'fleet.yaml', '--state', 'state.json', '--namespace', 'acme']);
    await until(() => run.out.stdout.includes('SVC_NAMESPACE'));
    expect(run.out.stderr).toContain('serving 1 sites');
    expect(fs.existsSync(join(dir, 'state.json'))).toBe(true);
    run.stop();
    expect(await run.done).toBe(0);
  });

  it('fails with exit 1 and the file:line on a bad fleet', async () => {
    writeFileSync(join(dir, 'bad.yaml'), 'sites:\n  - url: https://a.test/\n    colour: red\n');
    const run = await cli(['sandbox', '--fleet', join(dir, 'bad.yaml')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error [CONFIG_INVALID]');
    expect(run.stderr).toContain('bad.yaml:3: unknown key `colour`');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('fails with exit 1 and a clear message when the port is in use or the fleet is missing', async () => {
    const busy = await startSandbox({ fleet: smallFleet() });
    try {
      const port = new URL(busy.url).port;
      const run = await cli(['sandbox', '--port', port]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
    } finally {
      await busy.close();
    }
    const missing = await cli(['sandbox', '--fleet', join(dir, 'nope.yaml')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read the fleet file');
    const badClock = await cli(['sandbox', '--clock', 'slow']);
    expect([
      badClock.code,
      badClock.stderr.includes("argument 'slow' is invalid. Allowed choices are fast, realistic."),
    ]).toEqual([1, true]);
    const badThreshold = await cli(['sandbox', '--queue-threshold', '0']);
    expect([
      badThreshold.code,
      badThreshold.stderr.includes('--queue-threshold must be an integer from 1'),
    ]).toEqual([1, true]);
    const badProfile = await cli(['sandbox', '--profile', 'prod']);
    expect([
      badProfile.code,
      badProfile.stderr.includes("argument 'prod' is invalid. Allowed choices are"),
    ]).toEqual([1, true]);
  });

  it('refuses unknown quirks with the list, bad --surfaces and bad --generate, before serving', async () => {
    const unknown = await cli(['sandbox', '--quirk', 'noSuchQuirk=on']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown quirk "noSuchQuirk"');
    expect(unknown.stderr).toContain('restListFlatCapped, restListTypeWpAll500');
    const badState = await cli(['sandbox', '--quirk', 'siteNotFound403=maybe']);
    expect(badState.stderr).toContain('must be NAME=on or NAME=off');
    const surfaces = await cli(['sandbox', '--surfaces', 'graphql']);
    expect([
      surfaces.code,
      surfaces.stderr.includes('--surfaces "graphql" must list abilities, rest'),
    ]).toEqual([1, true]);
    const generate = await cli(['sandbox', '--generate', 'sites=10,colour=3']);
    expect([generate.code, generate.stderr.includes('--generate "colour=3" is not KEY=N')]).toEqual([
      1,
      true,
    ]);
    const percent = await cli(['sandbox', '--generate', 'sites=10,flagged=101']);
    expect(percent.stderr).toContain('--generate flagged must be from 0 to 100, got 101');
    const both = await cli(['sandbox', '--generate', 'sites=10', '--fleet', 'x.yaml']);
    expect(both.stderr).toContain('--generate and --fleet cannot be combined');
    const cost = await cli(['sandbox', '--site-cost', 'slow']);
    expect([cost.code, cost.stderr.includes('--site-cost "slow" must be milliseconds')]).toEqual([1, true]);
  });

  it('--site-cost sets the site-cost model: an unfiltered updates page answers that much later', async () => {
    // The spec profile has no cost by default: the flag alone makes the page slow.
    const run = launch(['--generate', 'sites=300,pending=2', '--profile', 'spec', '--site-cost', '2']);
    await until(() => run.out.stdout.includes('SVC_ALLOW_HTTP'));
    const url = /SVC_URL=(\S+)/.exec(run.out.stdout)?.[1] ?? '';
    const started = performance.now();
    const page = await fetch(
      `${url}/wp-json/wp-abilities/v1/abilities/svc/list-updates-v1/run?input[page]=1&input[per_page]=200`,
      {
        headers: {
          authorization: `Basic ${Buffer.from('admin:sand BOX1 demo PASS word 2026').toString('base64')}`,
        },
      },
    );
    expect(page.status).toBe(200);
    // A lower bound only: 300 sites × 2 ms are slept before the answer.
    expect(performance.now() - started).toBeGreaterThanOrEqual(590);
    run.stop();
    expect(await run.done).toBe(0);
  });

  it('--help lists every option with examples and every quirk name', async () => {
    const help = await cli(['sandbox', '--help']);
    expect(help.code).toBe(0);
    for (const option of [
      '--fleet',
      '--generate',
      '--profile',
      '--quirk',
      '--surfaces',
      '--port',
      '--state',
      '--tls',
      '--namespace',
      '--seed',
      '--clock',
      '--queue-threshold',
      '--batch-limit',
      '--site-cost',
    ])
      expect(help.stdout).toContain(option);
    expect(help.stdout).toContain('--generate sites=10000,pending=6,ignored=3');
    for (const name of QUIRK_NAMES) expect(help.stdout).toContain(name);
    const readme = fs.readFileSync(new URL('../../examples/sandbox/README.md', import.meta.url), 'utf8');
    for (const option of ['--generate', '--quirk', '--surfaces', '--profile next'])
      expect(readme).toContain(option);
  });

  it('serves a generated fleet, profile next, one quirk switched off and the abilities API alone', async () => {
    const run = launch([
      '--generate',
      'sites=300,pending=2,ignored=1,flagged=10,seed=5',
      '--profile',
      'next',
      '--quirk',
      'siteNotFound403=off',
      '--surfaces',
      'abilities',
    ]);
    await until(() => run.out.stdout.includes('SVC_ALLOW_HTTP'));
    expect(run.out.stderr).toContain('sandbox dashboard (next) serving 300 sites');
    const url = /SVC_URL=(\S+)/.exec(run.out.stdout)?.[1] ?? '';
    const auth = {
      authorization: `Basic ${Buffer.from('admin:sand BOX1 demo PASS word 2026').toString('base64')}`,
    };
    const count = await fetch(`${url}/wp-json/wp-abilities/v1/abilities/svc/count-sites-v1/run`, {
      headers: auth,
    });
    expect(await count.json()).toEqual({ total: 300 });
    const unknown = await fetch(
      `${url}/wp-json/wp-abilities/v1/abilities/svc/get-site-updates-v1/run?input[site_id_or_domain]=999`,
      { headers: auth },
    );
    expect(unknown.status).toBe(404);
    const ungated = await fetch(`${url}/wp-json/wp-abilities/v1/abilities/svc/run-updates-v1/run`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { site_ids_or_domains: [1] } }),
    });
    expect(((await ungated.json()) as { code: string }).code).toBe('svc_confirmation_required');
    const state = (await (await fetch(`${url}/__sandbox/state`)).json()) as {
      sites: Array<{ ignore_flags: Record<string, boolean> }>;
    };
    expect(state.sites.filter((site) => Object.values(site.ignore_flags).some(Boolean))).toHaveLength(30);
    const rest = await fetch(`${url}/wp-json/svc/v2/sites`);
    expect(rest.status).toBe(404);
    run.stop();
    expect(await run.done).toBe(0);
  });
});

describe('svc-gitops sandbox --state', () => {
  it('says it serves the restored state, not the --fleet, when the state file exists', async () => {
    const statePath = join(dir, 'restored.json');
    const first = await startSandbox({ fleet: smallFleet(), statePath });
    await first.close();
    const run = launch(['--state', 'restored.json']);
    await until(() => run.out.stderr.includes('serving'));
    expect(run.out.stderr).toContain(`serving 3 sites restored from ${statePath}`);
    run.stop();
    expect(await run.done).toBe(0);
  });
});
