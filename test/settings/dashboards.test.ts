import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { loadSettings } from '../../src/settings/index.js';
import { cli } from '../helpers/cli.js';
import { svcErrorSync } from '../helpers/errors.js';
import { memoryFs } from '../helpers/memory-fs.js';
import { demoFleet, sandboxPer } from '../helpers/sandbox.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/** Named dashboards in one settings file, chosen with --dashboard NAME or SVC_DASHBOARD. */
const FILE = {
  rateLimit: 30,
  dashboards: {
    prod: { dashboardUrl: 'https://prod.example.com', concurrency: 2 },
    staging: { dashboardUrl: 'https://staging.example.com', rateLimit: 0 },
  },
};
const load = (env: Record<string, string>, file: unknown = FILE) =>
  loadSettings({
    env,
    cwd: '/repo',
    homeDir: '/home/u',
    fs: memoryFs({ '/repo/settings.json': JSON.stringify(file) }),
  });

describe('named dashboards', () => {
  it('lays the chosen dashboard over the file and the environment over both', () => {
    const prod = load({ SVC_DASHBOARD: 'prod' });
    expect(prod.settings).toMatchObject({
      dashboardUrl: 'https://prod.example.com',
      concurrency: 2,
      rateLimit: 30,
    });
    expect(prod.source).toContain('file:/repo/settings.json#prod');
    const staging = load({ SVC_DASHBOARD: 'staging', SVC_CONCURRENCY: '8' });
    expect(staging.settings).toMatchObject({
      dashboardUrl: 'https://staging.example.com',
      rateLimit: 0,
      concurrency: 8,
    });
  });

  it('needs a choice when the file has dashboards and no URL of its own, and names them', () => {
    const error = svcErrorSync(() => load({}));
    expect(error.code).toBe('SETTINGS_INVALID');
    expect(error.message).toBe(
      '/repo/settings.json names several dashboards (prod, staging); none was chosen',
    );
    expect(error.hint).toContain('--dashboard NAME or SVC_DASHBOARD=NAME');
    // A URL of the file's own is the default dashboard.
    expect(load({}, { ...FILE, dashboardUrl: 'https://default.example.com' }).settings.dashboardUrl).toBe(
      'https://default.example.com',
    );
  });

  it('refuses a name the file does not have, with the closest one', () => {
    const error = svcErrorSync(() => load({ SVC_DASHBOARD: 'prd' }));
    expect(error.message).toBe('/repo/settings.json: no dashboard named "prd" (did you mean "prod"?)');
    expect(svcErrorSync(() => load({ SVC_DASHBOARD: 'prod' }, { rateLimit: 1 })).message).toContain(
      'the file names no dashboards',
    );
    expect(
      svcErrorSync(() => load({ SVC_DASHBOARD: 'prod' }, { dashboards: { prod: { ratelimit: 1 } } })).message,
    ).toContain('dashboards.prod: unknown key "ratelimit" (did you mean "rateLimit"?)');
  });
});

describe('--dashboard NAME', () => {
  const ROOT = join(import.meta.dirname, '..', '..');
  const sandbox = sandboxPer('suite', () =>
    startSandbox({
      fleet: demoFleet(),
    }),
  );

  it('plans against the named dashboard; credentials stay in the environment', async () => {
    const dir = tempDirForFile('svc-gitops-dashboards-');
    writeFileSync(
      join(dir, 'settings.json'),
      JSON.stringify({
        dashboards: {
          local: { dashboardUrl: sandbox.url, allowHttp: true, rateLimit: 0 },
          prod: { dashboardUrl: 'https://prod.example.com' },
        },
      }),
    );
    writeFileSync(join(dir, 'svc-gitops.yaml'), readFileSync(join(ROOT, 'examples/minimal.yaml')));
    const { SVC_USER, SVC_APP_PASSWORD } = sandbox.env();
    const env = { HOME: dir, SVC_USER, SVC_APP_PASSWORD };
    const plan = await cli(['--dashboard', 'local', 'plan'], { cwd: dir, env });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toContain(`from ${sandbox.url}`);
    const after = await cli(['plan', '--dashboard', 'local'], { cwd: dir, env });
    expect(after.code, after.stderr).toBe(0);
    const none = await cli(['plan'], { cwd: dir, env });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('names several dashboards (local, prod); none was chosen');
  });
});
