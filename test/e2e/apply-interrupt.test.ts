import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { fastClientEnv, sandboxControl, sandboxPer } from '../helpers/sandbox.js';
import { REPO, STACK_TRACE, startDemo, tempDir } from './helpers.js';

/**
 * Ctrl-C while `apply PLANFILE` re-reads the touched sites (before any change): the README
 * promises exit 130. A rate limit of one call a minute holds the re-read at its second request,
 * as a slow dashboard would; the interruption must not wait for it.
 */
describe('apply PLANFILE interrupted while re-checking the live state', () => {
  const sandbox = sandboxPer('suite', () => startDemo('compat-6.1'));

  it('exits 130 at once, applies nothing, and leaves the saved plan unused', async () => {
    const cwd = tempDir('svc-gitops-interrupt-');
    copyFileSync(join(REPO, 'examples/minimal.yaml'), join(cwd, 'svc-gitops.yaml'));
    const env = { HOME: tempDir(), ...fastClientEnv(sandbox) };
    expect((await cli(['plan', '--out', 'plan.json', '--target', '4'], { env, cwd })).code).toBe(0);
    const control = sandboxControl(sandbox);
    await control('POST', 'stats/reset');

    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('SIGINT')), 300);
    const started = Date.now();
    const run = await cli(['apply', 'plan.json'], {
      env: { ...env, SVC_RATE_LIMIT: '1' },
      cwd,
      signal: controller.signal,
    });
    expect(run.code, run.stderr).toBe(130);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(run.stderr).toContain('svc-gitops: interrupted');
    expect(run.stderr).not.toMatch(STACK_TRACE);
    const stats = (await control('GET', 'stats')) as { updates_run_total: number };
    expect(stats.updates_run_total).toBe(0);

    // Not used up: the plan still applies once the person runs it again.
    const again = await cli(['apply', 'plan.json'], { env, cwd });
    expect(again.code, again.stderr).toBe(0);
  });
});
