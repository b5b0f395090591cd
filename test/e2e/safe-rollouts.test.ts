import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseRolloutState } from '../../src/plan/index.js';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import type { Plan, RolloutState } from '../../src/types.js';
import { cli } from '../helpers/cli.js';
import { expectFitsSchema } from '../helpers/json-schemas.js';
import { sandboxPer } from '../helpers/sandbox.js';
import { hours, pluginUpdateFleet, sandboxEnv, T0, tempDir } from './helpers.js';

/**
 * Safe rollouts end to end: the real CLI against the sandbox, with an injected clock. Six sites
 * in three waves (canary 1-2, early 3-4, everyone 5-6), each with one plugin update pending.
 */
const FLEET = pluginUpdateFleet(6);

const WAVES = `rollout:
  waves:
    - {name: canary, sites: [1, 2]}
    - {name: early, sites: [3, 4]}
    - {name: everyone, sites: [all]}
`;

const POLICY = `updates:
  - name: plugins
    sites: [all]
    kinds: [plugins]
    max: minor
`;

describe('safe rollouts against the sandbox', () => {
  const sandbox = sandboxPer('test', async () => startSandbox({ fleet: parseFleet(FLEET) }));
  let dir: string;
  let env: Record<string, string>;
  beforeEach(() => {
    dir = tempDir();
    env = { ...sandboxEnv(sandbox, dir), SVC_RATE_LIMIT: '0' };
  });
  const config = (text: string) => writeFileSync(join(dir, 'svc-gitops.yaml'), `version: 1\n${text}`);
  const run = (argv: string[], at: Date) => cli(argv, { env, cwd: dir, now: () => at });
  const planJson = async (at: Date): Promise<Plan> => {
    const result = await run(['plan', '--format', 'json'], at);
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as Plan;
  };
  const stateFile = () => join(dir, 'svc-gitops.rollout.json');
  const state = (): RolloutState =>
    parseRolloutState(readFileSync(stateFile(), 'utf8'), stateFile(), new Date('2100-01-01T00:00:00Z'));
  const updatedSites = (plan: Plan) => plan.actions.filter((a) => a.op === 'update').map((a) => a.site_id);
  const control = (path: string, body: unknown) =>
    fetch(`${sandbox.url}/__sandbox/${path}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  // A second plugin pending beyond the canary: what a halted rollout goes on with once it may,
  // while the version that broke the canary stays quarantined.
  const helloBeyondCanary = async () => {
    for (const site of [3, 4, 5, 6]) {
      const reply = await fetch(`${sandbox.url}/__sandbox/pending`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ site, kind: 'plugin', slug: 'hello-dolly/hello.php', from: '1.6', to: '1.7' }),
      });
      expect(reply.ok).toBe(true);
    }
  };

  it('a window closed at `now` leaves its updates waiting; open, they are planned', async () => {
    config(`${POLICY}    window: {schedule: '* 22-23 * * *', timezone: Europe/Berlin}\n`);
    // 10:00 UTC is 11:00 in Berlin: closed.
    const closed = await planJson(T0);
    expect(updatedSites(closed)).toEqual([]);
    const waiting = closed.notes.filter((note) => note.kind === 'waiting');
    expect(waiting).toHaveLength(1);
    expect(waiting[0]?.site_ids).toEqual([1, 2, 3, 4, 5, 6]);
    expect(waiting[0]?.message).toBe(
      'plugin akismet/akismet.php updates wait for the window of policy "plugins": `* 22-23 * * *` (Europe/Berlin); it opens 2026-11-23 22:00 Europe/Berlin (2026-11-23T21:00:00.000Z)',
    );
    const text = await run(['plan'], T0);
    expect(text.stdout).toContain('waiting: plugin akismet/akismet.php updates wait for the window');
    // 21:30 UTC is 22:30 in Berlin: open.
    expect(updatedSites(await planJson(new Date('2026-11-23T21:30:00Z')))).toEqual([1, 2, 3, 4, 5, 6]);
    // Windows alone record nothing.
    expect(existsSync(stateFile())).toBe(false);
  });

  it('a version first seen an hour ago soaks under min_release_age: 3d, and is updated once old enough', async () => {
    config(`${POLICY}    min_release_age: 3d\n`);
    const first = await planJson(T0);
    expect(updatedSites(first)).toEqual([]);
    expect(state().first_seen).toEqual({ 'plugin akismet/akismet.php 5.3.7': T0.toISOString() });
    const hourLater = await planJson(hours(1));
    expect(updatedSites(hourLater)).toEqual([]);
    const soaking = hourLater.notes.find((note) => note.kind === 'waiting');
    expect(soaking?.site_ids).toEqual([1, 2, 3, 4, 5, 6]);
    expect(soaking?.message).toContain(
      'plugin akismet/akismet.php updates soak: policy "plugins" takes a version only once it has been pending 3d (min_release_age, svc-gitops.yaml:',
    );
    // The note says when the soak ends.
    expect(soaking?.message).toContain(
      `; versions first seen ${T0.toISOString()} soak until ${hours(72).toISOString()}`,
    );
    // Just short of three days it still soaks.
    expect(updatedSites(await planJson(hours(71)))).toEqual([]);
    // The recorded time is kept, not moved to the later run.
    expect(state().first_seen['plugin akismet/akismet.php 5.3.7']).toBe(T0.toISOString());
    expect(updatedSites(await planJson(hours(72)))).toEqual([1, 2, 3, 4, 5, 6]);
    // The file is small, one record per line: it diffs and merges line by line.
    expect(readFileSync(stateFile(), 'utf8')).toBe(
      `{"format":2}\n{"first_seen":"plugin akismet/akismet.php 5.3.7","at":"${T0.toISOString()}"}\n`,
    );
  });

  it('a three-wave rollout advances one wave per scheduled run', async () => {
    config(
      `${POLICY}rollout:
  health: {}
  waves:
    - {name: canary, sites: [1, 2]}
    - {name: early, sites: [3, 4], after: {wave: canary, healthy_for: 24h}}
    - {name: everyone, sites: [all], after: {wave: early, healthy_for: 24h}}
`,
    );
    const apply = async (at: Date) => {
      const result = await run(['apply', '--auto-approve'], at);
      expect(result.code, result.stderr).toBe(0);
      return result;
    };
    const day1 = await apply(T0);
    expect(day1.stdout).toContain('Apply complete: 2 done');
    expect(day1.stdout).toContain('wave canary: 2 updated site(s) checked, 0 unhealthy (healthy)');
    expect(state().waves).toEqual({ canary: { updated_at: T0.toISOString(), unhealthy: [] } });
    // An hour later nothing is due: early waits for canary's 24 hours.
    const early = await planJson(hours(1));
    expect(updatedSites(early)).toEqual([]);
    expect(early.notes.find((n) => n.kind === 'waiting' && n.site_ids?.includes(3))?.message).toContain(
      `wave "early" starts after wave "canary" has been healthy for 24h; it was last updated ${T0.toISOString()} (1h ago), so not before ${hours(24).toISOString()}`,
    );
    const day2 = await apply(hours(24));
    expect(day2.stderr).toContain('Checked the health of 2 site(s) of wave canary: healthy.');
    expect(day2.stdout).toContain('Apply complete: 2 done');
    expect(state().waves.early?.updated_at).toBe(hours(24).toISOString());
    const day3 = await apply(hours(48));
    expect(day3.stdout).toContain('Apply complete: 2 done');
    const after = await planJson(hours(72));
    expect(after.actions).toEqual([]);
  });

  it('a canary update that breaks a site stops the rollout, names the site and update, and resumes only once healthy', async () => {
    config(`${POLICY}rollout:\n  health: {max_unhealthy: 0}\n${WAVES.replace('rollout:\n', '')}`);
    const fault = await control('health-faults', [{ site: 2, item: 'plugin:akismet/akismet.php' }]);
    expect(fault.status).toBe(200);
    await helloBeyondCanary();
    const broken = await run(['apply', '--auto-approve'], T0);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(
      'Apply stopped (wave canary left unhealthy sites): 2 done, 0 failed, 8 skipped',
    );
    expect(broken.stdout).toContain(
      'site 2 https://site-2.demo.test/: offline (HTTP 500) after plugin akismet/akismet.php 5.3.6 → 5.3.7',
    );
    expect(broken.stdout).toContain('skipped (UNHEALTHY): 8');
    expect(broken.stdout).toContain('svc-gitops apply --resume');
    expect(state().waves.canary?.unhealthy).toMatchObject([{ site_id: 2, problem: 'offline (HTTP 500)' }]);
    const markdown = await run(['plan', '--format', 'markdown'], hours(1));
    expect(markdown.stdout).toContain('which left 1 unhealthy site(s) (https:');
    expect(markdown.stdout).toMatch(
      /site-2\.demo\.test\/: offline \(HTTP 500\) after plugin akismet\/akismet\.php 5\.3\.6 → 5\.3\.7/,
    );

    // Still broken: resume is refused and stays possible.
    const still = await run(['apply', '--resume', '--auto-approve'], hours(1));
    expect(still.code).toBe(1);
    expect(still.stderr).toContain('Checked the health of 1 site(s) of wave canary: 1 unhealthy.');
    expect(still.stderr).toContain(
      'error [UNHEALTHY]: wave canary still has 1 unhealthy site(s): site 2 https://site-2.demo.test/ (offline (HTTP 500))',
    );

    // Healed: a new check passes and the rollout continues, without the quarantined version.
    await control('health-faults', []);
    const resumed = await run(['apply', '--resume', '--auto-approve'], hours(2));
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('Apply complete: 4 done');
    expect(resumed.stdout).not.toMatch(/akismet\S* 5\.3\.6 → 5\.3\.7.*done/);
    expect(state().waves.canary?.unhealthy).toEqual([]);
  });

  it('--override-health lets the rollout continue past a failing check', async () => {
    config(`${POLICY}rollout:\n  health: {}\n${WAVES.replace('rollout:\n', '')}`);
    await control('health-faults', [
      { site: 1, item: 'plugin:akismet/akismet.php', http_code: 503, online: true },
    ]);
    await helloBeyondCanary();
    const broken = await run(['apply', '--auto-approve', '--format', 'json'], T0);
    expect(broken.code).toBe(1);
    // The report with its health section fits the published apply report schema.
    const report = expectFitsSchema('apply-report', broken.stdout) as {
      health: Array<{ wave: string; stopped: boolean }>;
    };
    expect(report.health).toMatchObject([
      { wave: 'canary', stopped: true, unhealthy: [{ site_id: 1, problem: 'HTTP 503' }] },
    ]);
    const blocked = await run(['plan', '--format', 'json'], hours(1));
    expect(blocked.code).toBe(3);
    expect(updatedSites(JSON.parse(blocked.stdout) as Plan)).toEqual([]);
    const overridden = await run(['apply', '--resume', '--auto-approve', '--override-health'], hours(1));
    expect(overridden.stdout).toContain('Apply complete: 4 done');
  });
});
