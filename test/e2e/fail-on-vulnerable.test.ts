import * as fs from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ACTION_INPUTS, runAction } from '../../src/cli/action.js';
import type { CliContext } from '../../src/cli/context.js';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import { startFakeGitHub } from '../github/fake-github.js';
import { cli } from '../helpers/cli.js';
import { sandboxPer } from '../helpers/sandbox.js';
import { sandboxEnv, T0, tempDir } from './helpers.js';
import { API_KEY, config, FLEET, putFeed } from './security-fixture.js';

/**
 * `--fail-on-vulnerable` without the flag: the failOnVulnerable setting (SVC_FAIL_ON_VULNERABLE)
 * and the Action's `fail-on-vulnerable` input, against the sandbox's feed (sites 5 and 6 are on
 * contact-form-7 5.0, vulnerable with no fix released).
 */
describe('fail on vulnerable from the environment and the Action', () => {
  const sandbox = sandboxPer('test', async () => startSandbox({ fleet: parseFleet(FLEET) }));
  let dir: string;
  let env: Record<string, string>;
  beforeEach(async () => {
    dir = tempDir();
    env = { ...sandboxEnv(sandbox, dir), SVC_RATE_LIMIT: '0', SVC_FEED_API_KEY: API_KEY };
    await putFeed(sandbox.url);
    fs.writeFileSync(join(dir, 'svc-gitops.yaml'), config(`${sandbox.url}/__sandbox/vulnerability-feed`));
  });

  it('SVC_FAIL_ON_VULNERABLE=true makes plan, drift and comment exit 4; unset or false, they do not', async () => {
    const run = (argv: string[], extra: Record<string, string> = {}) =>
      cli(argv, { env: { ...env, ...extra }, cwd: dir, now: () => T0 });
    expect((await run(['plan'])).code).toBe(0);
    expect((await run(['plan'], { SVC_FAIL_ON_VULNERABLE: 'false' })).code).toBe(0);
    const planned = await run(['plan'], { SVC_FAIL_ON_VULNERABLE: 'true' });
    expect(planned.code, planned.stderr).toBe(4);
    expect(planned.stderr).toContain('--fail-on-vulnerable: 2 sites vulnerable with no fix (sites 5, 6)');
    expect((await run(['drift'], { SVC_FAIL_ON_VULNERABLE: 'true' })).code).toBe(4);
    const commented = await run(['comment', '--dry-run'], { SVC_FAIL_ON_VULNERABLE: 'true' });
    expect(commented.code, commented.stderr).toBe(4);
    expect((await run(['comment', '--dry-run'])).code).toBe(0);
  });

  it('the Action input fail-on-vulnerable fails plan and drift with exit 4; the reviewed apply still runs', async () => {
    const github = await startFakeGitHub();
    const step = async (inputs: Record<string, string>) => {
      let stderr = '';
      const ctx: CliContext = {
        stdout: { write: () => true },
        stderr: { write: (s: string) => (stderr += s) },
        env: {
          NO_COLOR: '1',
          ...env,
          GITHUB_ACTIONS: 'true',
          GITHUB_REPOSITORY: 'acme/sites',
          GITHUB_API_URL: github.url,
          GITHUB_WORKSPACE: dir,
          GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
          GITHUB_OUTPUT: join(dir, 'output.txt'),
          RUNNER_TEMP: dir,
          ...Object.fromEntries(ACTION_INPUTS.map((input) => [`INPUT_${input.toUpperCase()}`, ''])),
          'INPUT_ARTIFACT-NAME': 'svc-gitops-plan',
          'INPUT_GITHUB-TOKEN': github.token,
          ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
        },
        cwd: dir,
        fs,
        signal: new AbortController().signal,
        now: () => T0,
      };
      return { code: await runAction(ctx), stderr };
    };
    try {
      await actionSteps(step, dir);
    } finally {
      await github.close();
    }
  });
});

type ActionStep = (inputs: Record<string, string>) => Promise<{ code: number; stderr: string }>;

async function actionSteps(step: ActionStep, dir: string): Promise<void> {
  const plain = await step({ command: 'plan', 'plan-file': 'reviewed.json' });
  expect(plain.code, plain.stderr).toBe(0);
  const failing = await step({ command: 'plan', 'plan-file': 'reviewed.json', 'fail-on-vulnerable': 'true' });
  expect(failing.code, failing.stderr).toBe(4);
  expect(failing.stderr).toContain('2 sites vulnerable with no fix');
  // The plan file is still saved for review: the verdict is the step's, not the plan's.
  expect(fs.existsSync(join(dir, 'reviewed.json'))).toBe(true);
  // drift: drift found alone passes the step (exit 2 → 0); the vulnerable sites fail it.
  expect((await step({ command: 'drift' })).code).toBe(0);
  expect((await step({ command: 'drift', 'fail-on-vulnerable': 'true' })).code).toBe(4);
  // The merge's apply of the reviewed plan is not blocked by it.
  const applied = await step({
    command: 'apply',
    'plan-file': 'reviewed.json',
    'fail-on-vulnerable': 'true',
  });
  expect(applied.code, applied.stderr).toBe(0);
}
