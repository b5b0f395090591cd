import * as fs from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROLLOUT_LOCK_MAX_AGE_MS, withRolloutLock } from '../../src/engine/rollout-file.js';
import { loadSettings, openSession, type SvcError } from '../../src/index.js';
import { parseRolloutState } from '../../src/plan/index.js';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import { fastClientEnv, sandboxPer } from '../helpers/sandbox.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/**
 * The rollout state's lock (`<file>.lock`) in virtual time: a wait is a step of an injected
 * clock, so a held lock, a stale one and two sessions contending take no wall time.
 */
const dir = tempDirForFile('svc-gitops-rollout-lock-');
let files = 0;
const statePath = () => join(dir, `state-${++files}.rollout.json`);

/** A clock whose sleeps move it forward at once; `onSleep` runs at each, with the time it reached. */
function virtualTimers(onSleep: (time: number) => void = () => {}) {
  const timers = {
    time: 1_800_000_000_000,
    sleeps: 0,
    now: () => timers.time,
    sleep: async (ms: number) => {
      timers.time += ms;
      timers.sleeps += 1;
      onSleep(timers.time);
    },
  };
  return timers;
}

function holdLock(path: string, holder: { pid: number; host: string; started_at: string }): void {
  fs.writeFileSync(`${path}.lock`, `${JSON.stringify(holder)}\n`);
}

const alive = () => true;

describe('the rollout state lock', () => {
  it('waits for a held lock, in virtual time, and runs once it is released', async () => {
    const path = statePath();
    const timers = virtualTimers();
    holdLock(path, { pid: process.pid, host: hostname(), started_at: new Date(timers.time).toISOString() });
    const order: string[] = [];
    const releaseAt = timers.time + 300;
    const released = virtualTimers((time) => {
      if (time >= releaseAt && fs.existsSync(`${path}.lock`)) {
        order.push('released');
        fs.rmSync(`${path}.lock`);
      }
    });
    released.time = timers.time;
    const warnings: string[] = [];
    const result = await withRolloutLock(
      fs,
      path,
      { onWarning: (m) => warnings.push(m), timers: released, isAlive: alive },
      () => order.push('work'),
    );
    expect(result).toBe(2);
    expect(order).toEqual(['released', 'work']);
    expect(released.sleeps).toBe(3);
    expect(warnings).toEqual([]);
    expect(fs.existsSync(`${path}.lock`)).toBe(false);
  });

  it('a lock that stays held is LOCKED after its wait, and is left to its holder', async () => {
    const path = statePath();
    const timers = virtualTimers();
    const holder = { pid: process.pid, host: hostname(), started_at: new Date(timers.time).toISOString() };
    holdLock(path, holder);
    const start = timers.time;
    let ran = false;
    const error = await withRolloutLock(fs, path, { onWarning: () => {}, timers, isAlive: alive }, () => {
      ran = true;
    }).then(
      () => undefined,
      (e: SvcError) => e,
    );
    expect(error?.code).toBe('LOCKED');
    expect(error?.details).toMatchObject({ path, reason: 'rollout-state-locked', holder });
    expect(ran).toBe(false);
    expect(timers.time - start).toBe(5_000);
    expect(JSON.parse(fs.readFileSync(`${path}.lock`, 'utf8'))).toEqual(holder);
  });

  it('takes over a lock whose holder is dead on this host, at once and with a warning', async () => {
    const path = statePath();
    const timers = virtualTimers();
    holdLock(path, { pid: 999_999_999, host: hostname(), started_at: new Date(timers.time).toISOString() });
    const warnings: string[] = [];
    await withRolloutLock(
      fs,
      path,
      { onWarning: (m) => warnings.push(m), timers, isAlive: (pid) => pid !== 999_999_999 },
      () => {},
    );
    expect(timers.sleeps).toBe(0);
    expect(warnings).toEqual([
      expect.stringMatching(/taking over a stale rollout state lock of pid 999999999 .*the process is gone/),
    ]);
    expect(fs.existsSync(`${path}.lock`)).toBe(false);
  });

  it('takes over a lock older than its limit from any host; a younger one is waited for', async () => {
    const path = statePath();
    const timers = virtualTimers();
    const other = { pid: 7, host: 'ci-runner-container' };
    const old = new Date(timers.time - ROLLOUT_LOCK_MAX_AGE_MS - 1).toISOString();
    holdLock(path, { ...other, started_at: old });
    const warnings: string[] = [];
    await withRolloutLock(fs, path, { onWarning: (m) => warnings.push(m), timers, isAlive: alive }, () => {});
    expect(timers.sleeps).toBe(0);
    expect(warnings).toEqual([
      expect.stringMatching(/ci-runner-container .*held longer than a run holds it/),
    ]);

    // A minute younger than the limit: the other host's run may still be writing.
    const young = new Date(timers.time - ROLLOUT_LOCK_MAX_AGE_MS + 60_000).toISOString();
    holdLock(path, { ...other, started_at: young });
    const refused = await withRolloutLock(
      fs,
      path,
      { onWarning: () => {}, timers, isAlive: alive },
      () => {},
    ).then(
      () => undefined,
      (e: SvcError) => e.code,
    );
    expect(refused).toBe('LOCKED');
    expect(timers.sleeps).toBe(50);
  });
});

const FLEET = `sites:
  - id: 1
    url: https://site-1.demo.test/
    plugins:
      alpha/alpha.php: 1.0.0 -> 1.1.0
  - id: 2
    url: https://site-2.demo.test/
    plugins:
      beta/beta.php: 2.0.0 -> 2.1.0
`;
const SOAK = `version: 1
updates:
  - {name: plugins, sites: [all], kinds: [plugins], max: minor, min_release_age: 3d}
`;

describe('two sessions contending for the rollout state', () => {
  const sandbox = sandboxPer('suite', () => startSandbox({ fleet: parseFleet(FLEET) }));

  it('both wait for a held lock, then each records under it: neither loses the other', async () => {
    const cwd = tempDirForFile('svc-gitops-contend-');
    fs.writeFileSync(join(cwd, 'svc-gitops.yaml'), SOAK);
    const path = join(cwd, 'svc-gitops.rollout.json');
    const lock = `${path}.lock`;
    // A third run holds the lock (this live process, so it is no stale lock) until both
    // sessions wait for it: the two then contend for it with each other.
    holdLock(path, { pid: process.pid, host: hostname(), started_at: new Date().toISOString() });
    let time = Date.parse('2026-03-01T12:00:00Z');
    const waiting = new Set<string>();
    let bothWaiting: () => void = () => {};
    const rendezvous = new Promise<void>((done) => {
      bothWaiting = done;
    });
    const timersOf = (name: string) => ({
      now: () => time,
      sleep: async (ms: number) => {
        time += ms;
        if (!fs.existsSync(lock) || waiting.has(name)) return;
        waiting.add(name);
        if (waiting.size === 2) {
          fs.rmSync(lock);
          bothWaiting();
        }
        await rendezvous;
      },
    });
    const env = { ...fastClientEnv(sandbox), SVC_ALLOW_HTTP: 'true', HOME: cwd };
    const warnings: string[] = [];
    const sessionOf = (name: string) =>
      openSession({
        settings: () => loadSettings({ env, cwd, fs, homeDir: cwd }).settings,
        fs,
        cwd,
        now: () => new Date(time),
        timers: timersOf(name),
        on: { warning: (m) => warnings.push(m) },
      });
    const [a, b] = [sessionOf('a'), sessionOf('b')];
    try {
      const plans = await Promise.all([a.plan({ targets: ['1'] }), b.plan({ targets: ['2'] })]);
      expect(plans.map((p) => p.plan.actions.length)).toEqual([0, 0]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    expect([...waiting].sort()).toEqual(['a', 'b']);
    expect(warnings).toEqual([]);
    expect(fs.existsSync(lock)).toBe(false);
    const state = parseRolloutState(fs.readFileSync(path, 'utf8'), path, new Date(time));
    expect(Object.keys(state.first_seen).sort()).toEqual([
      'plugin alpha/alpha.php 1.1.0',
      'plugin beta/beta.php 2.1.0',
    ]);
  });
});
