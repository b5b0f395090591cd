import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import type { Plan } from '../../src/types.js';
import { cli } from '../helpers/cli.js';
import { sandboxControl, sandboxPer } from '../helpers/sandbox.js';
import { hours, pluginUpdateFleet, sandboxEnv, THREE_WAVE_ROLLOUT, tempDir } from './helpers.js';

/**
 * Gates hold when apply writes, not only when the plan is made: the saved plan records its
 * windows, and apply judges them again before each wave. Four sites, one plugin update each;
 * the window `* 2 * * *` in Berlin is 01:00-02:00 UTC in November.
 */
const FLEET = pluginUpdateFleet(4);
const WINDOW = `{schedule: '* 2 * * *', timezone: Europe/Berlin}`;
const INSIDE = new Date('2026-11-23T01:50:00Z'); // 02:50 in Berlin
const AFTER = new Date('2026-11-23T02:20:00Z'); // 03:20 in Berlin
const NEXT = 'next window opens at 2026-11-24 02:00 Europe/Berlin (2026-11-24T01:00:00.000Z)';

describe('gates judged again at apply time, against the sandbox', () => {
  const sandbox = sandboxPer('test', async () => startSandbox({ fleet: parseFleet(FLEET) }));
  let dir: string;
  let env: Record<string, string>;
  beforeEach(() => {
    dir = tempDir();
    env = { ...sandboxEnv(sandbox, dir), SVC_RATE_LIMIT: '0' };
  });
  const run = (argv: string[], at: Date) => cli(argv, { env, cwd: dir, now: () => at });
  const updates = async (at: Date) => {
    const result = await run(['plan', '--format', 'json'], at);
    return (JSON.parse(result.stdout) as Plan).actions.filter((a) => a.op === 'update').length;
  };

  it('a window that closes between plan and apply refuses the saved plan with nothing sent', async () => {
    writeFileSync(
      join(dir, 'svc-gitops.yaml'),
      `version: 1\nupdates:\n  - {name: plugins, sites: [all], kinds: [plugins], max: minor, window: ${WINDOW}}\n`,
    );
    const saved = await run(['plan', '--out', 'plan.json'], INSIDE);
    expect(saved.code, saved.stderr).toBe(0);
    const plan = JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')) as Plan;
    expect(plan.gates).toEqual([
      { windows: [{ of: 'policy "plugins"', schedule: ['* 2 * * *'], timezone: 'Europe/Berlin' }] },
    ]);
    const late = await run(['apply', 'plan.json'], AFTER);
    expect(late.code).toBe(1);
    expect(late.stderr).toContain(
      'error [GATE_CLOSED]: not applied: the updates: the window of policy "plugins" (`* 2 * * *` (Europe/Berlin)) is closed at 2026-11-23T02:20:00.000Z',
    );
    expect(late.stderr).toContain(`${NEXT}; nothing was sent`);
    // Nothing was written: the four updates are still pending, planned in the next window.
    expect(await updates(new Date('2026-11-24T01:10:00Z'))).toBe(4);
    // The same plan applied in time goes through.
    const again = await run(['plan', '--out', 'plan2.json'], INSIDE);
    expect(again.code).toBe(0);
    const inTime = await run(['apply', 'plan2.json'], new Date('2026-11-23T01:55:00Z'));
    expect(inTime.code, inTime.stderr).toBe(0);
    expect(inTime.stdout).toContain('Apply complete: 4 done');
  });

  it('a wave window that closes mid-apply stops before that wave, and nothing runs until it opens', async () => {
    writeFileSync(
      join(dir, 'svc-gitops.yaml'),
      `version: 1
updates:
  - {name: plugins, sites: [all], kinds: [plugins], max: minor}
rollout:
  waves:
    - {name: canary, sites: [1, 2]}
    - {name: rest, sites: [all], window: ${WINDOW}}
`,
    );
    expect((await run(['plan', '--out', 'plan.json'], INSIDE)).code).toBe(0);
    const plan = JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')) as Plan;
    expect(plan.gates).toEqual([
      { wave: 'rest', windows: [{ of: 'wave "rest"', schedule: ['* 2 * * *'], timezone: 'Europe/Berlin' }] },
    ]);
    const stopped = await run(['apply', 'plan.json'], AFTER);
    expect(stopped.code).toBe(1);
    expect(stopped.stdout).toContain(
      `Apply stopped (wave rest: the window of wave "rest" (\`* 2 * * *\` (Europe/Berlin)) is closed at 2026-11-23T02:20:00.000Z; ${NEXT}): 2 done, 0 failed, 2 skipped`,
    );
    expect(stopped.stdout).toContain('skipped (GATE_CLOSED): 2');
    // Resumed while the window is shut: the plan made now leaves the wave waiting, nothing is sent.
    const early = await run(['apply', '--resume', '--auto-approve'], new Date('2026-11-23T03:00:00Z'));
    expect(early.code).toBe(0);
    expect(early.stdout).toContain('Apply complete: 0 done, 0 failed, 0 skipped, 0 blocked (0 calls');
    const next = await run(['apply', '--auto-approve'], new Date('2026-11-24T01:10:00Z'));
    expect(next.code, next.stdout + next.stderr).toBe(0);
    expect(next.stdout).toContain('Apply complete: 2 done');
  });

  it('notes say when a closed window opens, in its zone and in UTC', async () => {
    writeFileSync(
      join(dir, 'svc-gitops.yaml'),
      `version: 1\nupdates:\n  - {name: plugins, sites: [all], kinds: [plugins], max: minor, window: ${WINDOW}}\n`,
    );
    const text = await run(['plan'], AFTER);
    expect(text.stdout).toContain(
      'waiting: plugin akismet/akismet.php updates wait for the window of policy "plugins": `* 2 * * *` (Europe/Berlin); it opens 2026-11-24 02:00 Europe/Berlin (2026-11-24T01:00:00.000Z)',
    );
  });

  it("a saved plan of the next wave checks the earlier wave's health again: a canary broken since refuses it", async () => {
    writeFileSync(join(dir, 'svc-gitops.yaml'), THREE_WAVE_ROLLOUT);
    // The fixture has four sites: canary 1-2, early 3-4.
    expect((await run(['apply', '--auto-approve'], hours(0))).code).toBe(0);
    const saved = await run(['plan', '--out', 'plan.json'], hours(25));
    expect(saved.code, saved.stderr).toBe(0);
    const plan = JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')) as Plan;
    expect(plan.gates).toEqual([
      {
        wave: 'early',
        after: { wave: 'canary', healthy_for: '24h', opens_at: expect.any(String), site_ids: [1, 2] },
      },
    ]);
    // The canary breaks after the plan was saved.
    await sandboxControl(sandbox)('PUT', 'health-faults', [
      { site: 2, item: 'plugin:akismet/akismet.php', version: '5.3.7' },
    ]);
    const late = await run(['apply', 'plan.json'], hours(25.5));
    expect(late.code).toBe(1);
    expect(late.stderr).toContain(
      'error [GATE_CLOSED]: not applied: wave early starts only once wave canary is healthy: a health check at apply time found 1 unhealthy site(s) in it (site 2: offline (HTTP 500)); nothing was sent',
    );
    // Nothing reached early: its two updates are still pending, and the next plan holds them.
    const left = await run(['plan', '--format', 'json'], hours(25.6));
    expect(
      (JSON.parse(left.stdout) as Plan).notes.filter((n) => n.kind === 'waiting').flatMap((n) => n.site_ids),
    ).toEqual(expect.arrayContaining([3, 4]));
  });
});
