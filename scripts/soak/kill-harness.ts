/**
 * The kill test: an apply is started as a child process (`node --import tsx src/cli/main.ts
 * apply …`) against a sandbox running in this process, killed at a seeded random point (SIGKILL
 * mostly, SIGINT sometimes, early during planning or in the middle of the calls), then re-run in
 * process (`apply --resume` or a plain `apply --auto-approve`) until it completes. Every trial
 * must end with the sandbox in the desired state (a fresh plan has no actions) and no update
 * run twice (the sandbox counts every update it runs).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/run.js';
import { loadDesiredState } from '../../src/config/index.js';
import { createDashboardClient } from '../../src/dashboard/index.js';
import { createPlan } from '../../src/plan/index.js';
import {
  generateFleet,
  type RunningSandbox,
  type SandboxProfile,
  startSandbox,
} from '../../src/sandbox/index.js';
import { loadSettings } from '../../src/settings/index.js';

const REPO = resolve(import.meta.dirname, '../..');
const MAIN = join(REPO, 'src/cli/main.ts');
// The child's working directory is a temp dir: tsx must be named by location, not by package.
const TSX = import.meta.resolve('tsx');

export const KILL_CONFIG = `version: 1
ignores:
  unmanaged: remove
  rules:
    - sites: [all]
      plugins: [jetpack/jetpack.php]
updates:
  - name: routine
    sites: [all]
    kinds: [plugins, themes, translations]
    max: minor
`;

export interface TrialResult {
  trial: number;
  seed: number;
  signal: 'SIGKILL' | 'SIGINT';
  /** When the kill was sent: ms after the child printed its apply start line, or `early`. */
  killAt: string;
  childExit: number | string | null;
  /** Write calls the killed child got to the dashboard (shows where the kill landed). */
  writesBeforeKill: number;
  reruns: string[];
  remainingActions: number;
  maxRunsPerUpdate: number;
  ok: boolean;
}

/** mulberry32: the kill points must repeat with the seed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function runKillTrial(
  trial: number,
  seed: number,
  profile: SandboxProfile,
): Promise<TrialResult> {
  const random = seeded(seed * 1000 + trial);
  // No hidden pending updates: an unignore would reveal them and need a second plan to converge.
  const fleet = generateFleet({ sites: 30, pendingPerSite: 3, ignoredPerSite: 0, seed: seed * 1000 + trial });
  // Slow writes a little so a kill lands in the middle of the calls, not only before or after.
  const sandbox = await startSandbox({
    fleet,
    profile,
    seed: trial + 1,
    faults: [{ kind: 'latency', method: 'POST', delayMs: 10 }],
  });
  const dir = mkdtempSync(join(tmpdir(), 'svc-kill-'));
  writeFileSync(join(dir, 'svc-gitops.yaml'), KILL_CONFIG);
  const env = { ...sandbox.env(), SVC_RATE_LIMIT: '0', SVC_CONCURRENCY: '2', NO_COLOR: '1' };
  try {
    const signal = random() < 0.75 ? 'SIGKILL' : 'SIGINT';
    const early = random() < 0.2;
    const delay = Math.floor(random() * (early ? 1500 : 400));
    const child = await runChildAndKill(dir, env, signal, early, delay);
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'PUT',
      body: '[]',
      headers: { 'content-type': 'application/json' },
    });
    const writesBeforeKill = await writeCalls(sandbox);
    const reruns: string[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const resume = trial % 2 === 1 && attempt === 0;
      let code = await cliInProcess(dir, env, resume ? ['apply', '--resume'] : ['apply', '--auto-approve']);
      reruns.push(`${resume ? 'resume' : 'apply'}:${code.code}`);
      if (resume && code.code !== 0 && /no interrupted apply/.test(code.stderr)) {
        code = await cliInProcess(dir, env, ['apply', '--auto-approve']);
        reruns.push(`apply:${code.code}`);
      }
      if (code.code === 0) break;
    }
    const remaining = await remainingActions(sandbox, env, dir);
    const runs = await maxRuns(sandbox);
    return {
      trial,
      seed,
      signal,
      killAt: early ? `early+${delay}ms` : `apply+${delay}ms`,
      childExit: child,
      writesBeforeKill,
      reruns,
      remainingActions: remaining,
      maxRunsPerUpdate: runs,
      ok: remaining === 0 && runs <= 1,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await sandbox.close();
  }
}

function runChildAndKill(
  dir: string,
  env: Record<string, string>,
  signal: 'SIGKILL' | 'SIGINT',
  early: boolean,
  delay: number,
): Promise<number | string | null> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', TSX, MAIN, 'apply', '--auto-approve'], {
      cwd: dir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    let armed = false;
    const arm = () => {
      if (armed) return;
      armed = true;
      setTimeout(() => child.kill(signal), delay);
    };
    if (early) arm();
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      if (!early && /apply: \d+ action/.test(stderr)) arm();
    });
    child.on('error', fail);
    child.on('exit', (code, sig) => done(code ?? sig));
  });
}

async function cliInProcess(
  dir: string,
  env: Record<string, string>,
  argv: string[],
): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const ctx: CliContext = {
    stdout: { write: () => true, isTTY: false },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env: { ...env },
    cwd: dir,
    fs,
    signal: new AbortController().signal,
    now: () => new Date(),
  };
  const code = await runCli(argv, ctx);
  return { code, stderr };
}

async function remainingActions(
  sandbox: RunningSandbox,
  env: Record<string, string>,
  dir: string,
): Promise<number> {
  const { settings } = loadSettings({ env, cwd: dir, fs, homeDir: dir });
  const client = createDashboardClient(settings);
  try {
    const live = await client.readLive();
    const loaded = await loadDesiredState({ path: 'svc-gitops.yaml', fs, cwd: dir });
    if (!loaded.desired) throw new Error('kill-test config is invalid');
    return createPlan(loaded.desired, live, { now: new Date(), lifetimeMinutes: 60 }).actions.length;
  } finally {
    await client.close();
    void sandbox;
  }
}

async function writeCalls(sandbox: RunningSandbox): Promise<number> {
  const stats = (await (await fetch(`${sandbox.url}/__sandbox/stats`)).json()) as {
    abilities: Record<string, number>;
  };
  return Object.entries(stats.abilities)
    .filter(([name]) => /ignore-site-|set-ignored|run-updates/.test(name))
    .reduce((n, [, count]) => n + count, 0);
}

async function maxRuns(sandbox: RunningSandbox): Promise<number> {
  const stats = (await (await fetch(`${sandbox.url}/__sandbox/stats`)).json()) as {
    updates_run: Array<{ count: number }>;
  };
  return Math.max(0, ...stats.updates_run.map((u) => u.count));
}
