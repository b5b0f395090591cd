import { afterEach, describe, expect, it } from 'vitest';
import { type FaultProxy, startFaultProxy } from '../../scripts/soak/fault-proxy.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { REPO, STACK_TRACE, sandboxEnv, startDemo, tempDir } from '../e2e/helpers.js';
import { cli } from '../helpers/cli.js';

/**
 * Issue 21, finding 5: listings that disagree (an update of a site the sites listing lacks, a
 * negative site ID) are refused as an incomplete read, never planned around. A proxy in front of
 * the sandbox rewrites its answers the way an inconsistent dashboard would send them.
 */
let sandbox: RunningSandbox | undefined;
let proxy: FaultProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await sandbox?.close();
});

async function planThrough(rewrite: (path: string, text: string) => string) {
  sandbox = await startDemo('spec');
  proxy = await startFaultProxy(sandbox.url, {
    rewrite: (path, body) => Buffer.from(rewrite(path, body.toString('utf8'))),
  });
  const env = { ...sandboxEnv(sandbox, tempDir()), SVC_URL: proxy.url };
  return cli(['plan', '-c', 'examples/agency.yaml'], { env, cwd: REPO });
}

describe('listing invariants', () => {
  it('refuses updates of a site the sites listing does not hold', async () => {
    // The site listing is REST GET /sites (the demo's env sets a REST key), with string IDs.
    const result = await planThrough((path, text) => {
      if (!path.includes('/v2/sites')) return text;
      const body = JSON.parse(text) as { data: Array<{ id: string }>; total: number };
      const data = body.data.filter((site) => site.id !== '4');
      return JSON.stringify({ ...body, data, total: body.total - (body.data.length - data.length) });
    });
    expect(result.code, result.stdout).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('error [INCOMPLETE_READ]');
    expect(result.stderr).toMatch(/names site 4 \(.+\), which the sites listing does not hold/);
    expect(result.stderr).not.toMatch(STACK_TRACE);
  });

  it('refuses a site ID that is not a positive integer', async () => {
    const result = await planThrough((path, text) =>
      path.includes('/v2/sites')
        ? text.replace('"id":"4",', '"id":"-1",')
        : text.replaceAll('"site_id":4,', '"site_id":-1,'),
    );
    expect(result.code, result.stdout).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('error [INCOMPLETE_READ]');
    expect(result.stderr).toContain('site ID -1, but site IDs are positive integers');
  });
});
