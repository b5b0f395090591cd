import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseFleet, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import type { StatusReport } from '../../src/types.js';
import { pluginUpdateFleet } from '../e2e/helpers.js';
import { cli } from '../helpers/cli.js';
import { fastClientEnv } from '../helpers/sandbox.js';
import { type Connected, connect, testClock } from './helpers.js';

/** Two waves: canary 1-2 now, the rest a day after canary was healthy. */
const CONFIG = `version: 1
updates:
  - name: plugins
    sites: [all]
    kinds: [plugins]
    max: minor
rollout:
  health: {}
  waves:
    - {name: canary, sites: [1, 2]}
    - {name: rest, sites: [all], after: {wave: canary, healthy_for: 24h}}
`;

describe('svc_status, the status use case through the tool server', () => {
  let sandbox: RunningSandbox;
  let agent: Connected | undefined;
  beforeEach(async () => {
    sandbox = await startSandbox({ fleet: parseFleet(pluginUpdateFleet(4)) });
  });
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
    await sandbox.close();
  });

  it('groups the items as `svc-gitops status` does, in the same working directory and clock', async () => {
    const clock = testClock();
    agent = await connect({ env: fastClientEnv(sandbox), files: { 'svc-gitops.yaml': CONFIG }, clock });
    const answer = await agent.call('svc_status', {});
    expect(answer.isError, answer.text).toBe(false);
    const report = answer.result as unknown as StatusReport & { markdown: string };
    const group = (state: string) => report.groups.find((g) => g.state === state);
    expect(group('pending')).toMatchObject({ items: 1, sites: 2 });
    expect(group('held')).toMatchObject({ items: 1, sites: 2 });
    expect(answer.text).toContain('akismet/akismet.php');

    const printed = await cli(['status', '--format', 'json'], {
      env: { ...fastClientEnv(sandbox), HOME: agent.cwd },
      cwd: agent.cwd,
      now: clock.now,
    });
    expect(printed.code, printed.stderr).toBe(0);
    expect((JSON.parse(printed.stdout) as StatusReport).groups).toEqual(report.groups);
  });

  it('refuses a config outside the working directory', async () => {
    agent = await connect({ env: fastClientEnv(sandbox), files: { 'svc-gitops.yaml': CONFIG } });
    const answer = await agent.call('svc_status', { config: '../elsewhere.yaml' });
    expect(answer.isError).toBe(true);
  });
});
