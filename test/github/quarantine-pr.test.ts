import * as fs from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAction } from '../../src/cli/action.js';
import type { CliContext } from '../../src/cli/context.js';
import { loadDesiredState } from '../../src/config/index.js';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import { hours, pluginUpdateFleet, sandboxEnv, T0, tempDir } from '../e2e/helpers.js';
import { sandboxPer } from '../helpers/sandbox.js';
import { type FakeGitHub, startFakeGitHub } from './fake-github.js';

/**
 * The action's scheduled rollout, after a breaking canary update: one pull request that adds the
 * quarantine hold to the desired state, the evidence in its body (GitHub faked at the HTTP level).
 */
const CONFIG = `version: 1
# the fleet's plugins
updates:
  - {name: plugins, sites: [all], kinds: [plugins], max: minor}
rollout:
  health: {max_unhealthy: 0}
  waves:
    - {name: canary, sites: [1, 2]}
    - {name: rest, sites: [all]}
`;
const BRANCH = 'svc-gitops/quarantine/svc-gitops-yaml';

describe('the quarantine pull request, against the sandbox and a fake GitHub', () => {
  const sandbox = sandboxPer('test', async () => startSandbox({ fleet: parseFleet(pluginUpdateFleet(4)) }));
  let github: FakeGitHub;
  let dir: string;
  beforeEach(async () => {
    github = await startFakeGitHub();
    dir = tempDir();
    fs.writeFileSync(join(dir, 'svc-gitops.yaml'), CONFIG);
    await fetch(`${sandbox.url}/__sandbox/health-faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ site: 2, item: 'plugin:akismet/akismet.php', version: '5.3.7' }]),
    });
  });
  afterEach(() => github.close());

  const rollout = async (at: Date) => {
    let stdout = '';
    const ctx: CliContext = {
      stdout: {
        write: (s: string) => {
          stdout += s;
          return true;
        },
        isTTY: false,
      },
      stderr: { write: () => true, isTTY: false },
      env: {
        ...sandboxEnv(sandbox, dir),
        SVC_RATE_LIMIT: '0',
        NO_COLOR: '1',
        INPUT_COMMAND: 'rollout',
        'INPUT_GITHUB-TOKEN': github.token,
        GITHUB_REPOSITORY: 'acme/sites',
        GITHUB_API_URL: github.url,
        GITHUB_REF_NAME: 'main',
        GITHUB_WORKSPACE: dir,
        GITHUB_RUN_ID: '77',
        RUNNER_TEMP: dir,
      },
      cwd: dir,
      fs,
      signal: new AbortController().signal,
      now: () => at,
    };
    return { code: await runAction(ctx), stdout };
  };

  it('opens one pull request adding the hold, with the evidence, and updates it on the next run', async () => {
    const first = await rollout(T0);
    expect(first.code).toBe(1);
    expect(first.stdout).toContain('Opened the quarantine pull request #100');
    expect(github.git.pulls).toHaveLength(1);
    const pull = github.git.pulls[0]!;
    expect(pull).toMatchObject({
      head: BRANCH,
      base: 'main',
      title: 'svc-gitops: quarantine akismet/akismet.php 5.3.7',
    });
    expect(pull.body.split('\n')[0]).toBe('<!-- svc-gitops:quarantine svc-gitops.yaml -->');
    expect(pull.body).toContain('#### plugin `akismet/akismet.php` 5.3.7');
    expect(pull.body).toContain(`Found by the health check of wave \`canary\` at ${T0.toISOString()}`);
    expect(pull.body).toContain('| 2 | `https://site-2.demo.test/` | offline (HTTP 500) |');
    expect(pull.body).toContain(
      'Adds the hold `{plugin: "akismet/akismet.php", sites: [all], versions: ["5.3.7"]}`',
    );
    expect(pull.body).toContain('/acme/sites/actions/runs/77');

    // The branch's file: the desired state with the hold added, comments kept, and valid.
    const text = github.git.files.get(`acme/sites ${BRANCH} svc-gitops.yaml`) ?? '';
    expect(text).toBe(
      `${CONFIG}holds:\n  - plugin: akismet/akismet.php\n    sites: [all]\n    versions: ['5.3.7']\n    reason: "quarantined by svc-gitops: wave canary's health check found 1 site(s) unhealthy after it (${T0.toISOString()})"\n`,
    );
    const proposed = join(dir, 'proposed.yaml');
    fs.writeFileSync(proposed, text);
    const loaded = await loadDesiredState({ path: proposed, fs, cwd: dir });
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.desired?.holds).toMatchObject([
      { kind: 'plugin', slug: 'akismet/akismet.php', versions: ['5.3.7'] },
    ]);

    // The next run updates the same pull request; none is opened beside it.
    const second = await rollout(hours(1));
    expect(second.stdout).toContain('Updated the quarantine pull request #100');
    expect(github.git.pulls).toHaveLength(1);

    // Merged (the hold is in the desired state): nothing more is proposed.
    fs.writeFileSync(join(dir, 'svc-gitops.yaml'), text);
    const merged = await rollout(hours(2));
    expect(merged.stdout).not.toContain('quarantine pull request');
    expect(github.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/pulls'))).toHaveLength(1);
  });
});
