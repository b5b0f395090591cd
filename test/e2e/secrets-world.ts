import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { type FakeGitHub, startFakeGitHub } from '../github/fake-github.js';
import { REPO, sandboxEnv, startDemo, tempDir } from './helpers.js';

export interface SecretsWorld {
  sandbox: RunningSandbox;
  github: FakeGitHub;
  /** A working directory holding the minimal example as svc-gitops.yaml and a pull-request event. */
  cwd: string;
  /** A GitHub Actions job's environment against both servers, carrying every canary credential. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * The sandbox and the fake GitHub, each knowing only the canary credentials given, and the
 * environment a workflow step would have: the setting every secrets test starts from.
 */
export async function startSecretsWorld(canaries: {
  username: string;
  applicationPassword: string;
  token: string;
  githubToken: string;
  prefix: string;
}): Promise<SecretsWorld> {
  const { username, applicationPassword, token, githubToken, prefix } = canaries;
  const sandbox = await startDemo('compat-6.1', { credentials: { username, applicationPassword, token } });
  const github = await startFakeGitHub({ token: githubToken });
  const cwd = tempDir(prefix);
  copyFileSync(join(REPO, 'examples/minimal.yaml'), join(cwd, 'svc-gitops.yaml'));
  writeFileSync(
    join(cwd, 'event.json'),
    JSON.stringify({ pull_request: { number: 7, head: { sha: 'abcdef1234567890' } } }),
  );
  const env = {
    ...sandboxEnv(sandbox, tempDir()),
    GITHUB_ACTIONS: 'true',
    GITHUB_REPOSITORY: 'acme/sites',
    GITHUB_TOKEN: githubToken,
    GITHUB_API_URL: github.url,
    GITHUB_RUN_ID: '4242',
    GITHUB_EVENT_PATH: join(cwd, 'event.json'),
    GITHUB_WORKSPACE: cwd,
    GITHUB_STEP_SUMMARY: join(cwd, 'summary.md'),
    GITHUB_OUTPUT: join(cwd, 'output.txt'),
  };
  return {
    sandbox,
    github,
    cwd,
    env,
    async close() {
      await github.close();
      await sandbox.close();
    },
  };
}
