import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import type { Plan } from '../../src/types.js';
import { cli } from '../helpers/cli.js';
import { sandboxPer } from '../helpers/sandbox.js';
import { pluginUpdateFleet, sandboxEnv, tempDir } from './helpers.js';

/**
 * Page health checks against the sandbox over loopback: the sandbox serves each site's pages at
 * `<sandbox>/__sites/<id>/` (its `sitePages` option gives the sites those URLs). Site 2's
 * check-site stays healthy (online, HTTP 200) while its pages break after akismet 5.3.7:
 * only the page check sees it, and its verdict halts the rollout as a failed check-site does.
 */
const T0 = new Date('2026-11-23T10:00:00Z');
const config = (health: string) => `version: 1
updates:
  - {name: plugins, sites: [all], kinds: [plugins], max: minor}
rollout:
  health: ${health}
  waves:
    - {name: canary, sites: [1, 2]}
    - {name: rest, sites: [all]}
`;
const FATAL = '<br />\n<b>Fatal error</b>:  Uncaught Error: Call to undefined function akismet_x()';

describe('page health checks, against the sandbox', () => {
  const sandbox = sandboxPer('test', async () =>
    startSandbox({ fleet: parseFleet(pluginUpdateFleet(4)), sitePages: true }),
  );
  let dir: string;
  let env: Record<string, string>;
  beforeEach(() => {
    dir = tempDir();
    env = { ...sandboxEnv(sandbox, dir), SVC_RATE_LIMIT: '0' };
  });
  const put = (what: string, body: unknown) =>
    fetch(`${sandbox.url}/__sandbox/${what}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const breakSite2 = (page: Record<string, unknown>) =>
    put('health-faults', [
      {
        site: 2,
        item: 'plugin:akismet/akismet.php',
        version: '5.3.7',
        online: true,
        http_code: 200,
        ...page,
      },
    ]);
  const run = (argv: string[], at = T0) => cli(argv, { env, cwd: dir, now: () => at });

  it('a fatal-error marker halts the canary; the next plan stays halted on it', async () => {
    await breakSite2({ page_status: 200, page_body: FATAL });
    writeFileSync(
      join(dir, 'svc-gitops.yaml'),
      config(`{paths: [{path: /, status: 2xx, not_contains: "Fatal error", cache_bust: true}]}`),
    );
    const apply = await run(['apply', '--auto-approve']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(1);
    expect(apply.stdout).toContain('Apply stopped (wave canary left unhealthy sites)');
    expect(apply.stdout).toContain('page /: body contains "Fatal error"');
    // Sites 3 and 4 (wave rest) were not updated.
    const state = (await (await fetch(`${sandbox.url}/__sandbox/state`)).json()) as {
      sites: { id: number; plugins: { slug: string; version: string }[] }[];
    };
    const akismet = (id: number) => state.sites.find((s) => s.id === id)?.plugins[0]?.version;
    expect([1, 2, 3, 4].map(akismet)).toEqual(['5.3.7', '5.3.7', '5.3.6', '5.3.6']);
    // Every page fetch carried a fresh cache-busting parameter.
    const pages = (await (await fetch(`${sandbox.url}/__sandbox/site-pages`)).json()) as {
      recent: { site: number; query: string }[];
    };
    const queries = pages.recent.map((r) => r.query);
    expect(queries.length).toBeGreaterThanOrEqual(2);
    for (const query of queries) expect(query).toMatch(/^svc_gitops_check=[0-9a-f-]{36}$/);
    expect(new Set(queries).size).toBe(queries.length);

    // The plan-time re-check fetches the pages too: the halt holds, exactly as a failed check-site.
    const plan = await run(['plan', '--format', 'json'], new Date(T0.getTime() + 3_600_000));
    expect(plan.code).toBe(3);
    expect((JSON.parse(plan.stdout) as Plan).rollout_halt).toMatchObject({
      wave: 'canary',
      unhealthy: [{ site_id: 2, problem: 'page /: body contains "Fatal error"' }],
    });
  });

  it('without page checks the same break passes check-site (the control)', async () => {
    await breakSite2({ page_status: 200, page_body: FATAL });
    writeFileSync(join(dir, 'svc-gitops.yaml'), config('{max_unhealthy: 0}'));
    const apply = await run(['apply', '--auto-approve']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
  });

  it('a status mismatch names the path, the expected and the seen status', async () => {
    await breakSite2({ page_status: 503 });
    writeFileSync(join(dir, 'svc-gitops.yaml'), config(`{paths: [{path: /shop/, status: [200, 301-302]}]}`));
    const apply = await run(['apply', '--auto-approve']);
    expect(apply.code).toBe(1);
    expect(apply.stdout).toContain('page /shop/: expected HTTP 200, 301-302, got 503');
  });

  it('a page that does not answer within the timeout fails the site', async () => {
    await put('faults', [{ kind: 'latency', route: '/__sites/2/', delayMs: 4000 }]);
    writeFileSync(join(dir, 'svc-gitops.yaml'), config(`{paths: [{path: /}], timeout_seconds: 1}`));
    const apply = await run(['apply', '--auto-approve']);
    await put('faults', []);
    expect(apply.code).toBe(1);
    expect(apply.stdout).toContain('page /: no answer within 1 s');
    expect(apply.stdout).not.toMatch(/site 1 .*page/);
  });
});

describe("a wave's own page checks, against the sandbox", () => {
  const sandbox = sandboxPer('test', async () =>
    startSandbox({ fleet: parseFleet(pluginUpdateFleet(4)), sitePages: true }),
  );
  const FATAL_BODY = '<b>Fatal error</b>: Uncaught Error';
  const waveConfig = (canaryPaths: string) => `version: 1
updates:
  - {name: plugins, sites: [all], kinds: [plugins], max: minor}
rollout:
  health: {paths: [{path: /, status: 2xx}]}
  waves:
    - {name: canary, sites: [1, 2]${canaryPaths}}
    - {name: rest, sites: [all]}
`;
  const applyWith = async (canaryPaths: string) => {
    const dir = tempDir();
    await fetch(`${sandbox.url}/__sandbox/health-faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        {
          site: 2,
          item: 'plugin:akismet/akismet.php',
          version: '5.3.7',
          online: true,
          http_code: 200,
          page_status: 200,
          page_body: FATAL_BODY,
        },
      ]),
    });
    writeFileSync(join(dir, 'svc-gitops.yaml'), waveConfig(canaryPaths));
    const env = { ...sandboxEnv(sandbox, dir), SVC_RATE_LIMIT: '0' };
    return cli(['apply', '--auto-approve'], { env, cwd: dir, now: () => T0 });
  };

  it("the wave's paths replace rollout.health.paths: its fatal-error marker halts the canary", async () => {
    const apply = await applyWith(', paths: [{path: /, not_contains: "Fatal error"}]');
    expect(apply.code, apply.stdout + apply.stderr).toBe(1);
    expect(apply.stdout).toContain('Apply stopped (wave canary left unhealthy sites)');
    expect(apply.stdout).toContain('page /: body contains "Fatal error"');
  });

  it('without them the shared paths (status only) pass the same break (the control)', async () => {
    const apply = await applyWith('');
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
  });
});
