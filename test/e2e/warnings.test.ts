import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { REPO, sandboxEnv, startDemo, tempDir } from './helpers.js';

let sandbox: RunningSandbox | undefined;
afterEach(() => sandbox?.close());

/** A warning printed on every run is read once and then ignored: each one must be earned. */
describe('warnings a plan run prints', () => {
  it('a self-signed sandbox (skipSslVerify) is warned of once, not once per layer', async () => {
    sandbox = await startDemo('compat-6.1', { tls: true });
    const env = sandboxEnv(sandbox, tempDir());
    const run = await cli(['plan', '-c', 'examples/agency.yaml'], { env, cwd: REPO });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.match(/warning:.*(skipSslVerify|certificate)/g)).toHaveLength(1);
  });

  it('a plain-HTTP sandbox on loopback is not warned of; a misspelt SVC_* variable is', async () => {
    sandbox = await startDemo('spec');
    const env = { ...sandboxEnv(sandbox, tempDir()), SVC_RATE_LIMT: '0' };
    const run = await cli(['plan', '-c', 'examples/agency.yaml'], { env, cwd: REPO });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('plain HTTP');
    expect(run.stderr).toContain(
      'warning: SVC_RATE_LIMT is not a setting and is ignored: did you mean SVC_RATE_LIMIT?',
    );
  });
});
