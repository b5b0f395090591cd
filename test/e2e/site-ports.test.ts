import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFleet } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { fastClientEnv, sandboxPer } from '../helpers/sandbox.js';
import { start } from '../sandbox/helpers.js';

/**
 * Sites on a non-default port (staging hosts, the real-dashboard harness's children at
 * http://127.0.0.1:8181/ …) are named `host:port` in a desired state; the bare host names no
 * site, as several sites share it.
 */
const FLEET = parseFleet(
  `
sites:
  - id: 1
    url: http://127.0.0.1:8101/
    plugins: { akismet/akismet.php: 5.3.6 -> 5.3.7 }
  - id: 2
    url: http://127.0.0.1:8102/
    plugins: { akismet/akismet.php: 5.3.6 -> 5.3.7 }
`,
  'ports.yaml',
);

describe('host:port site names', () => {
  const sandbox = sandboxPer('suite', () => start({ fleet: FLEET }));
  const dir = mkdtempSync(join(tmpdir(), 'svc-ports-'));

  async function plan(sites: string) {
    writeFileSync(
      join(dir, 'svc-gitops.yaml'),
      `version: 1\nupdates:\n  - name: p\n    sites: [${sites}]\n    kinds: [plugins]\n    max: patch\n`,
    );
    return cli(['plan'], { env: fastClientEnv(sandbox), cwd: dir });
  }

  it('selects exactly the site at that port', async () => {
    const r = await plan("'127.0.0.1:8102'");
    expect(r.stderr).not.toMatch(/error/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('1 to update on 1 site');
    expect(r.stdout).toContain('site 2 http://127.0.0.1:8102/');
  });

  it('the bare host names no site', async () => {
    const r = await plan("'127.0.0.1'");
    expect(r.stdout).toContain('selects domain 127.0.0.1, which the dashboard does not list');
  });
});
