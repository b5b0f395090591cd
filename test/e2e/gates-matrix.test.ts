import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseFleet, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import {
  FRONT_ENDS,
  type FrontEnd,
  type FrontEndName,
  type FrontEndOptions,
  openFrontEnd,
} from './front-ends.js';
import { hours, pluginUpdateFleet, THREE_WAVE_ROLLOUT, tempDir } from './helpers.js';

/**
 * The same rollout scenarios through every front end (the CLI, the Action's entry, the tool
 * server), against the sandbox, on injected clocks, with the same outcomes: gates hold
 * whichever door a change comes through. Six sites in three waves (canary 1-2, early 3-4 after
 * canary healthy for 24h, everyone after early). What reached a site is read from the sandbox's
 * own state (`/__sandbox/state`), not from what the front end says it did.
 */
const HALTING = THREE_WAVE_ROLLOUT.replace('health: {}', 'health: {max_unhealthy: 0}');
const WINDOWED = `version: 1
updates:
  - {name: plugins, sites: [all], kinds: [plugins], max: minor, window: {schedule: '* 2 * * *', timezone: Europe/Berlin}}
`;
/** The window in two waves: canary (sites 1-2), then everyone, in one apply. */
const WINDOWED_WAVES = `${WINDOWED}rollout:
  waves:
    - {name: canary, sites: [1, 2]}
    - {name: everyone, sites: [all]}
`;
/** 02:57 and 03:01 in Berlin: the window `* 2 * * *` closes between them (within a token's 5 minutes). */
const IN_WINDOW = new Date('2026-11-23T01:57:00Z');
const WINDOW_CLOSED = new Date('2026-11-23T02:01:00Z');
const HALT_LINE = /^Rollout halted at wave canary: 1 site unhealthy since /;
/** A core update (safe mode refuses it) and a misspelt slug (strict refuses it). */
const REVIEW_FLEET = `sites:
  - id: 1
    url: https://site-1.demo.test/
    core: 6.8.1 -> 6.8.3
    plugins:
      akismet/akismet.php: 5.3.6 -> 5.3.7
`;
const REVIEW_CONFIG = `version: 1
updates:
  - {name: core, sites: [all], kinds: [core], max: minor}
  - {name: plugins, sites: [all], kinds: [plugins], max: minor}
holds:
  - {sites: [all], plugin: akismet/akismett.php}
`;

/** The akismet version on each site, by site id, as the sandbox holds it. */
async function versions(sandbox: RunningSandbox): Promise<number[]> {
  const state = (await (await fetch(`${sandbox.url}/__sandbox/state`)).json()) as {
    sites: Array<{ id: number; plugins: Array<{ slug: string; version: string }> }>;
  };
  return state.sites
    .filter((site) => site.plugins.some((p) => p.slug === 'akismet/akismet.php' && p.version === '5.3.7'))
    .map((site) => site.id)
    .sort((a, b) => a - b);
}

async function breakSite(sandbox: RunningSandbox, site: number | undefined): Promise<void> {
  const faults = site === undefined ? [] : [{ site, item: 'plugin:akismet/akismet.php', version: '5.3.7' }];
  await fetch(`${sandbox.url}/__sandbox/health-faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  });
}

describe.each(FRONT_ENDS)('gates hold through the %s', (name: FrontEndName) => {
  let sandbox: RunningSandbox | undefined;
  let front: FrontEnd | undefined;
  afterEach(async () => {
    await front?.close();
    await sandbox?.close();
    front = undefined;
    sandbox = undefined;
  });
  const open = async (config: string, fleet = pluginUpdateFleet(6), env: Record<string, string> = {}) => {
    const dir = tempDir('svc-gitops-matrix-');
    // The sandbox's state file is written before each answer: a clock may read it synchronously.
    sandbox = await startSandbox({ fleet: parseFleet(fleet), statePath: join(dir, 'sandbox-state.json') });
    writeFileSync(join(dir, 'svc-gitops.yaml'), config);
    front = await openFrontEnd(name, sandbox, dir, env);
    return { sandbox, front, dir };
  };

  it('a broken canary leaves the later waves untouched, and the held rollout stays loud on every later run', async () => {
    const { sandbox, front } = await open(HALTING);
    await breakSite(sandbox, 2);
    const first = await front.rollout(hours(0));
    expect(first.ok, first.text).toBe(false);
    expect(await versions(sandbox)).toEqual([1, 2]);
    for (const later of [hours(30), hours(60)]) {
      const run = await front.rollout(later);
      expect(run.ok, run.text).toBe(false);
      expect(run.lead, run.text).toMatch(HALT_LINE);
      expect(await versions(sandbox)).toEqual([1, 2]);
    }
  });

  it('a deleted rollout state makes the next wave wait its healthy_for from first sight', async () => {
    const { sandbox, front, dir } = await open(THREE_WAVE_ROLLOUT);
    expect((await front.rollout(hours(0))).ok).toBe(true);
    const early = await front.rollout(hours(25));
    expect(early.ok, early.text).toBe(true);
    expect(await versions(sandbox)).toEqual([1, 2, 3, 4]);
    rmSync(join(dir, 'svc-gitops.rollout.json'));
    for (const soon of [hours(25.5), hours(49)]) {
      const run = await front.rollout(soon);
      expect(run.ok, run.text).toBe(true);
      expect(await versions(sandbox)).toEqual([1, 2, 3, 4]);
    }
    expect((await front.rollout(hours(50))).ok).toBe(true);
    expect(await versions(sandbox)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('a window that closes between plan and apply refuses the apply with nothing written', async () => {
    const { sandbox, front } = await open(WINDOWED);
    const run = await front.planThenApply(IN_WINDOW, WINDOW_CLOSED);
    expect(run.ok, run.text).toBe(false);
    expect(run.text).toContain('GATE_CLOSED');
    expect(run.text).toContain(
      'next window opens at 2026-11-24 02:00 Europe/Berlin (2026-11-24T01:00:00.000Z)',
    );
    expect(await versions(sandbox)).toEqual([]);
  });

  it('a window that closes between waves stops the apply before the next wave, with nothing written to it', async () => {
    const { sandbox, front, dir } = await open(WINDOWED_WAVES);
    // The apply's clock reads 02:58 until the sandbox holds the first wave's update, then 03:01:
    // the window closes while the apply runs, between its waves (no sleep, no patched Date).
    const state = join(dir, 'sandbox-state.json');
    const written = () => readFileSync(state, 'utf8').includes('"version":"5.3.7"');
    const applyClock = () => (written() ? WINDOW_CLOSED : new Date(IN_WINDOW.getTime() + 60_000));
    const run = await front.planThenApply(IN_WINDOW, applyClock);
    expect(run.ok, run.text).toBe(false);
    // The tool server's text is markdown: the code's underscore comes escaped.
    expect(run.text).toMatch(/GATE(_|&#95;)CLOSED/);
    expect(run.text).toContain('wave everyone: the window of policy "plugins"');
    expect(run.text).toContain(
      'next window opens at 2026-11-24 02:00 Europe/Berlin (2026-11-24T01:00:00.000Z)',
    );
    expect(await versions(sandbox)).toEqual([1, 2]);
  });

  it('healthy_for restarts after an unhealthy check', async () => {
    const { sandbox, front } = await open(THREE_WAVE_ROLLOUT);
    expect((await front.rollout(hours(0))).ok).toBe(true);
    await breakSite(sandbox, 2);
    await front.rollout(hours(25));
    expect(await versions(sandbox)).toEqual([1, 2]);
    await breakSite(sandbox, undefined);
    // Healed at +25h30m: the 24h count restarted at the unhealthy check (+25h), not before.
    const healed = await front.rollout(hours(25.5));
    expect(await versions(sandbox), healed.text).toEqual([1, 2]);
    expect((await front.rollout(hours(48.5))).ok).toBe(true);
    expect(await versions(sandbox)).toEqual([1, 2]);
    const due = await front.rollout(hours(49.5));
    expect(due.ok, due.text).toBe(true);
    expect(await versions(sandbox)).toEqual([1, 2, 3, 4]);
  });

  it('safe-mode and strict refusals come first, within the first 10 lines of what the reviewer sees', async () => {
    const { sandbox, front } = await open(REVIEW_CONFIG, REVIEW_FLEET, { SVC_STRICT: 'true' });
    const review = await front.review(hours(0));
    // Strict fails the check (the pull request can fix a name); safe mode alone would not.
    expect(review.ok, review.text).toBe(false);
    expect(review.head, review.text).toContain('SAFE_MODE_BLOCKED');
    expect(review.head).toContain('UNKNOWN_NAMES');
    expect(review.head).toContain('akismet/akismett.php');
    expect(await versions(sandbox)).toEqual([]);
  });
});

/**
 * The plan-A/token-B misuse: the user wants plan A (site 1), the agent makes plan B (all six
 * sites) and tries to apply it on A's confirmation. With elicitation the user's own answer about
 * the plan named governs; without, a newer plan revokes the older token and a token confirms only
 * the plan_id it names. The CLI and the Action carry no confirmation with a plan: not applicable.
 */
const PLUGINS = `version: 1
updates:
  - {name: plugins, sites: [all], kinds: [plugins], max: minor}
`;
const MISUSE_ROWS: Array<{ front: FrontEndName; mode: string; options: FrontEndOptions }> = [
  { front: 'cli', mode: 'not applicable: a saved plan file is applied by its own id', options: {} },
  { front: 'action', mode: 'not applicable: the reviewed plan file is applied by its own id', options: {} },
  { front: 'mcp', mode: 'without elicitation: tokens', options: {} },
  {
    front: 'mcp',
    mode: 'with elicitation: the user wants plan A (one site) and answers for it only',
    options: { user: (question) => /on 1 site\(s\)/.test(question) },
  },
];

describe.each(MISUSE_ROWS)('plan A shown, plan B applied: $front, $mode', ({ front: name, options }) => {
  let sandbox: RunningSandbox | undefined;
  let front: FrontEnd | undefined;
  afterEach(async () => {
    await front?.close();
    await sandbox?.close();
  });

  it("plan B never rides on plan A's confirmation; A alone is applied when confirmed", async () => {
    sandbox = await startSandbox({ fleet: parseFleet(pluginUpdateFleet(6)) });
    const dir = tempDir('svc-gitops-matrix-misuse-');
    writeFileSync(join(dir, 'svc-gitops.yaml'), PLUGINS);
    front = await openFrontEnd(name, sandbox, dir, {}, options);
    if (name !== 'mcp') {
      expect(front.confirmOtherPlan).toBeUndefined();
      return;
    }
    const outcome = await front.confirmOtherPlan?.(hours(0));
    expect(outcome?.misuses.length).toBeGreaterThan(0);
    for (const misuse of outcome?.misuses ?? []) {
      expect(misuse.ok, misuse.text).toBe(false);
      expect(misuse.text).toMatch(
        options.user ? /USER(_|&#95;)DECLINED/ : /PREVIEW(_|&#95;)REQUIRED|INVALID(_|&#95;)PARAMETER/,
      );
    }
    expect(outcome?.applyA.ok, outcome?.applyA.text).toBe(true);
    expect(await versions(sandbox)).toEqual([1]);
  });
});
