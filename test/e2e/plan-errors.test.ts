import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { json, startServer } from '../dashboard/helpers/server.js';
import { cli } from '../helpers/cli.js';
import {
  closedPortUrl,
  FAST_RETRIES,
  PROFILES,
  REPO,
  resetStats,
  STACK_TRACE,
  sandboxEnv,
  sandboxStats,
  startDemo,
  tempDir,
} from './helpers.js';

const MINIMAL = join(REPO, 'examples/minimal.yaml');

/** A desired state with a schema error on line 6 (`max: huge`). */
const INVALID_YAML = `version: 1
updates:
  - name: routine
    sites: [all]
    kinds: [plugins]
    max: huge
`;

/** Every failing run: exit 1, one `svc-gitops: error [CODE]` line, no stack trace, nothing on stdout. */
function expectCleanFailure(result: { code: number; stdout: string; stderr: string }, code: string): void {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr).toContain(`svc-gitops: error [${code}]`);
  expect(result.stderr).not.toMatch(STACK_TRACE);
}

describe.each(PROFILES)('plan failures against the %s sandbox', (profile) => {
  let sandbox: RunningSandbox;
  let home: string;

  beforeAll(async () => {
    sandbox = await startDemo(profile);
    home = tempDir();
  });
  afterAll(() => sandbox.close());

  it('an invalid desired state: exit 1, file:line:col on stderr, nothing sent to the dashboard', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'svc-gitops.yaml'), INVALID_YAML);
    await resetStats(sandbox);
    const result = await cli(['plan'], { env: sandboxEnv(sandbox, home), cwd: dir });
    expectCleanFailure(result, 'CONFIG_INVALID');
    expect(result.stderr).toMatch(/svc-gitops\.yaml:6:\d+: error \[/);
    expect((await sandboxStats(sandbox)).requests_total).toBe(0);
  });

  it('no dashboard configured: exit 1 with a hint on how to configure one', async () => {
    const dir = tempDir();
    const result = await cli(['plan', '-c', MINIMAL], { env: { HOME: home }, cwd: dir });
    expectCleanFailure(result, 'SETTINGS_INVALID');
    expect(result.stderr).toContain('no dashboard configured');
    expect(result.stderr).toMatch(/hint: .*SVC_URL/);
  });

  it('a wrong application password: exit 1, names the username and the application password', async () => {
    // Random, as generated passwords are (secrets-readable.test.ts has one made of words).
    const wrong = 'wR0n gP4s 5w0R dX9x';
    const result = await cli(['plan', '-c', MINIMAL], {
      env: { ...sandboxEnv(sandbox, home), SVC_APP_PASSWORD: wrong },
      cwd: REPO,
    });
    expectCleanFailure(result, 'AUTH_FAILED');
    expect(result.stderr).toMatch(/username/i);
    expect(result.stderr).toMatch(/application password|SVC_APP_PASSWORD/i);
    expect(result.stderr).not.toContain(wrong);
    expect(result.stderr).not.toContain(wrong.replaceAll(' ', ''));
  });

  it('no credentials, or a username without its password: exit 1, says what is missing, sends nothing', async () => {
    for (const [missing, what] of [
      [{ SVC_USER: '', SVC_APP_PASSWORD: '', SVC_TOKEN: '' }, /no dashboard credentials/],
      [
        { SVC_APP_PASSWORD: '', SVC_TOKEN: '' },
        /a username is set \(SVC_USER or the settings file\) but no application password/,
      ],
    ] as const) {
      await resetStats(sandbox);
      const result = await cli(['plan', '-c', MINIMAL], {
        env: { ...sandboxEnv(sandbox, home), ...missing },
        cwd: REPO,
      });
      expectCleanFailure(result, 'SETTINGS_INVALID');
      expect(result.stderr).toMatch(what);
      expect(result.stderr).not.toContain('bearer token');
      expect(result.stderr).toMatch(/hint: .*SVC_APP_PASSWORD.*SVC_TOKEN/);
      expect((await sandboxStats(sandbox)).requests_total).toBe(0);
    }
  });

  it('an unreachable dashboard (closed port): exit 1, names ECONNREFUSED', async () => {
    const result = await cli(['plan', '-c', MINIMAL], {
      env: { ...sandboxEnv(sandbox, home), SVC_URL: await closedPortUrl() },
      cwd: REPO,
    });
    expectCleanFailure(result, 'CONNECTION_FAILED');
    expect(result.stderr).toContain('ECONNREFUSED');
  });
});

describe('plan with a dashboard that keeps failing', () => {
  it('HTTP 500 on every read: exit 1, a clear HTTP error, no partial plan on stdout', async () => {
    const sandbox = await startDemo('compat-6.1', {
      faults: [{ kind: 'status', status: 500, route: '/abilities' }],
    });
    try {
      const env = { ...sandboxEnv(sandbox, tempDir()), ...FAST_RETRIES };
      const result = await cli(['plan', '-c', MINIMAL], { env, cwd: REPO });
      expectCleanFailure(result, 'HTTP_ERROR');
      expect(result.stderr).toContain('500');
      // With --format json stdout holds the error document alone, never part of a plan.
      const json = await cli(['plan', '-c', MINIMAL, '--format', 'json'], { env, cwd: REPO });
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout)).toMatchObject({ kind: 'error', code: 'HTTP_ERROR' });
    } finally {
      await sandbox.close();
    }
  });
});

describe('plan with a dashboard whose errors hold terminal escapes', () => {
  it('prints the error with every control character neutralised', async () => {
    const hostile = await startServer((_req, res) =>
      json(res, 400, {
        code: 'bad\u001b[31mRED',
        message: 'Boom \u001b]0;pwned\u0007 \u001b[2J cleared\u202e',
        data: { status: 400 },
      }),
    );
    const sandbox = await startDemo('compat-6.1');
    try {
      const result = await cli(['plan', '-c', MINIMAL], {
        env: { ...sandboxEnv(sandbox, tempDir()), SVC_URL: hostile.url },
        cwd: REPO,
      });
      expectCleanFailure(result, 'HTTP_ERROR');
      expect(result.stderr).toContain('Boom');
      expect(result.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    } finally {
      await hostile.close();
      await sandbox.close();
    }
  });
});
