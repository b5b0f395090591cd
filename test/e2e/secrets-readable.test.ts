import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { REPO, sandboxEnv, startDemo, tempDir } from './helpers.js';

/**
 * Issue 29, item 2: the mask replaces secret values, never words. A password that holds the
 * words "PASSWORD" and "password" is refused by the dashboard: its message and the tool's hint,
 * which hold those words, are printed as written, while the password itself is masked.
 */
const MINIMAL = `${REPO}/examples/minimal.yaml`;
const WORDY = 'aB3d PASSWORD zK3w password Lq2W';
const WRONG = 'Zq9x PASSWORD Wv8u password Ts7r';

describe('masking leaves words readable', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startDemo('compat-6.1', { credentials: { applicationPassword: WORDY } });
  });
  afterAll(() => sandbox.close());

  it("a wrong password holding words: the dashboard's message and the hint stay whole", async () => {
    const result = await cli(['plan', '-c', MINIMAL], {
      env: { ...sandboxEnv(sandbox, tempDir()), SVC_APP_PASSWORD: WRONG },
      cwd: REPO,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('The provided password is an invalid application password.');
    expect(result.stderr).toMatch(/SVC_USER and SVC_APP_PASSWORD\b/);
    expect(result.stderr).not.toContain('[redacted]');
    expect(result.stderr).not.toContain(WRONG);
  });

  it('the same password quoted back whole is masked', async () => {
    // A --target naming no site is quoted in the error.
    const result = await cli(['plan', '-c', MINIMAL, '--target', WORDY.toUpperCase()], {
      env: sandboxEnv(sandbox, tempDir()),
      cwd: REPO,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--target [redacted]');
  });
});
