import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseRolloutState } from '../../src/plan/index.js';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import type { Plan, RolloutState } from '../../src/types.js';
import { cli } from '../helpers/cli.js';
import { sandboxPer } from '../helpers/sandbox.js';
import { hours, pluginUpdateFleet, sandboxEnv, T0, THREE_WAVE_ROLLOUT, tempDir } from './helpers.js';

/**
 * A rollout state that is lost, or says a wave went unhealthy, delays the rollout and never
 * speeds it up. The real CLI against the sandbox, with an injected clock: six sites in three
 * waves (canary 1-2, early 3-4, everyone 5-6), each with one plugin update pending.
 */
const FLEET = pluginUpdateFleet(6);
const CONFIG = THREE_WAVE_ROLLOUT;

describe('a rollout state that fails closed, against the sandbox', () => {
  const sandbox = sandboxPer('test', async () => startSandbox({ fleet: parseFleet(FLEET) }));
  let dir: string;
  let env: Record<string, string>;
  beforeEach(() => {
    dir = tempDir();
    env = { ...sandboxEnv(sandbox, dir), SVC_RATE_LIMIT: '0' };
    writeFileSync(join(dir, 'svc-gitops.yaml'), CONFIG);
  });
  const run = (argv: string[], at: Date) => cli(argv, { env, cwd: dir, now: () => at });
  const stateFile = () => join(dir, 'svc-gitops.rollout.json');
  const state = (): RolloutState =>
    parseRolloutState(readFileSync(stateFile(), 'utf8'), stateFile(), new Date('2100-01-01T00:00:00Z'));
  const updatedSites = async (at: Date) => {
    const result = await run(['plan', '--format', 'json'], at);
    // 3: the rollout is halted (a wave has unhealthy sites); the plan is printed all the same.
    expect([0, 3], result.stderr).toContain(result.code);
    const plan = JSON.parse(result.stdout) as Plan;
    return { sites: plan.actions.filter((a) => a.op === 'update').map((a) => a.site_id), plan, result };
  };
  const apply = async (at: Date) => {
    const result = await run(['apply', '--auto-approve'], at);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    return result;
  };
  const breakSite = (site: number) =>
    fetch(`${sandbox.url}/__sandbox/health-faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(
        site === 0 ? [] : [{ site, item: 'plugin:akismet/akismet.php', version: '5.3.7' }],
      ),
    });

  it('a state file deleted between runs makes the next wave wait its `healthy_for` from first sight', async () => {
    await apply(T0);
    expect((await apply(hours(24))).stdout).toContain('Apply complete: 2 done');
    rmSync(stateFile());
    // Half an hour after early: everyone must not start, whatever the missing file said.
    const lost = await updatedSites(hours(24.5));
    expect(lost.sites).toEqual([]);
    expect(lost.plan.notes.find((n) => n.site_ids?.includes(5))?.message).toContain(
      `the rollout state has no record of when it last ran, so its \`healthy_for\` counts from now, ${hours(24.5).toISOString()}, so not before ${hours(48.5).toISOString()}`,
    );
    // With no record, the waves that went before are checked at plan time, not assumed healthy.
    expect(lost.result.stderr).toContain('Checked the health of 2 site(s) of wave canary: healthy.');
    expect(lost.result.stderr).toContain('Checked the health of 2 site(s) of wave early: healthy.');
    expect(state().waves.early).toEqual({ done_seen_at: hours(24.5).toISOString(), unhealthy: [] });
    expect((await updatedSites(hours(48))).sites).toEqual([]);
    // The first sighting is kept, not moved to the later run.
    expect(state().waves.early?.done_seen_at).toBe(hours(24.5).toISOString());
    expect((await apply(hours(48.5))).stdout).toContain('Apply complete: 2 done');
  });

  it('`healthy_for` restarts at an unhealthy plan-time check, and the check is recorded', async () => {
    await apply(T0);
    await breakSite(2);
    const sick = await run(['plan', '--format', 'json'], hours(25));
    expect(sick.stderr).toContain('Checked the health of 2 site(s) of wave canary: 1 unhealthy.');
    expect(state().waves.canary).toMatchObject({
      updated_at: T0.toISOString(),
      unhealthy_at: hours(25).toISOString(),
      unhealthy: [{ site_id: 2, problem: 'offline (HTTP 500)' }],
    });
    await breakSite(0);
    // Healed half an hour later: early still waits a full day from the unhealthy check.
    const healed = await updatedSites(hours(25.5));
    expect(healed.sites).toEqual([]);
    expect(healed.plan.notes.find((n) => n.site_ids?.includes(3))?.message).toContain(
      `a health check found it unhealthy ${hours(25).toISOString()} (30m ago), which restarts the count, so not before ${hours(49).toISOString()}`,
    );
    expect(state().waves.canary?.unhealthy).toEqual([]);
    expect((await updatedSites(hours(48.9))).sites).toEqual([]);
    expect((await updatedSites(hours(49))).sites).toEqual([3, 4]);
  });

  it('merges two branches that each add records with git (merge=union), and refuses a conflicted file', async () => {
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.test', ...args], {
        cwd: dir,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', HOME: dir, GIT_CONFIG_NOSYSTEM: '1' },
      });
    git('init', '-q', '-b', 'main');
    await apply(T0);
    git('add', '-A');
    git('commit', '-qm', 'canary');
    const base = readFileSync(stateFile(), 'utf8');
    // Branch a: early is applied a day later. Branch b: a health check finds canary unhealthy.
    git('checkout', '-qb', 'a');
    await apply(hours(24));
    git('commit', '-qam', 'early');
    git('checkout', '-q', 'main');
    git('checkout', '-qb', 'b');
    await breakSite(2);
    await run(['plan'], hours(25));
    git('commit', '-qam', 'unhealthy');
    // Without merge=union the records' lines conflict; the CLI refuses the file at the marker.
    git('checkout', '-q', 'a');
    expect(() => git('merge', '-q', 'b')).toThrow();
    const conflicted = await run(['plan'], hours(26));
    expect(conflicted.code).toBe(1);
    expect(conflicted.stderr).toMatch(
      /svc-gitops\.rollout\.json:\d+: rollout state: an unresolved Git merge conflict/,
    );
    expect(conflicted.stderr).not.toMatch(/delete/);
    git('merge', '--abort');
    // With the documented .gitattributes line, the same merge is clean and keeps both sides' facts.
    writeFileSync(join(dir, '.gitattributes'), '*.rollout.json merge=union\n');
    git('add', '.gitattributes');
    git('commit', '-qm', 'union');
    git('merge', '-q', '--no-edit', 'b');
    expect(readFileSync(stateFile(), 'utf8')).not.toBe(base);
    expect(state().waves).toMatchObject({
      canary: {
        updated_at: T0.toISOString(),
        unhealthy_at: hours(25).toISOString(),
        unhealthy: [{ site_id: 2 }],
      },
      early: { updated_at: hours(24).toISOString(), unhealthy: [] },
    });
    // The merged state holds the rollout: canary is unhealthy, so everyone waits.
    expect((await updatedSites(hours(50))).sites).toEqual([]);
  });
});
