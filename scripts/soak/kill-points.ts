/**
 * The kill test at every point of a saved plan's start: `apply plan.json` is run in process on a
 * file system that dies at its n-th write (dying-fs.ts), for every n from the first write of the
 * apply (the lock) up to and including the first `sent` line of the journal: the used mark, the
 * journal's opening, its run-start line and fsync, and everything between them. After each
 * death the person's way out must work: `apply --resume` finishes the run, or, when it finds
 * none, `apply plan.json` applies the plan (it was not used); then a fresh plan has no actions
 * and no update ran twice. A plan stranded ("already applied" with nothing to resume) fails.
 */
import * as fs from 'node:fs';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/run.js';
import { generateFleet, type SandboxProfile, startSandbox } from '../../src/sandbox/index.js';
import { dyingFs } from './dying-fs.js';
import { KILL_CONFIG } from './kill-harness.js';

export interface PointResult {
  /** The write the process died at (1-based), and what it was. */
  point: number;
  write: string;
  /** What the recovery ran, with exit codes. */
  recovery: string[];
  remainingActions: number;
  maxRunsPerUpdate: number;
  ok: boolean;
}

/** The writes of an undisturbed `apply plan.json` up to its first `sent` line: the kill points. */
export async function killPoints(profile: SandboxProfile): Promise<string[]> {
  return (await pointTrial(Number.POSITIVE_INFINITY, profile)).writes;
}

/** One trial: die at write `point`, recover as a person would, check the dashboard converged. */
export async function runPointTrial(point: number, profile: SandboxProfile): Promise<PointResult> {
  const trial = await pointTrial(point, profile);
  return trial.result!;
}

async function pointTrial(
  point: number,
  profile: SandboxProfile,
): Promise<{ writes: string[]; result?: PointResult }> {
  const sandbox = await startSandbox({
    fleet: generateFleet({ sites: 3, pendingPerSite: 2, ignoredPerSite: 0, seed: 7 }),
    profile,
  });
  const dir = mkdtempSync(join(tmpdir(), 'svc-kill-point-'));
  const lockDir = join(dir, 'locks');
  writeFileSync(join(dir, 'svc-gitops.yaml'), KILL_CONFIG);
  const env = {
    ...sandbox.env(),
    SVC_RATE_LIMIT: '0',
    SVC_CONCURRENCY: '1',
    HOME: dir,
    SVC_GITOPS_LOCK_DIR: lockDir,
    NO_COLOR: '1',
  };
  const run = (argv: string[], files: typeof fs = fs) => cliInProcess(dir, env, argv, files);
  try {
    const planned = await run(['plan', '--out', 'plan.json']);
    if (planned.code !== 0) throw new Error(`plan failed: ${planned.stderr}`);
    const dying = dyingFs(fs, point);
    // The writes up to the first `sent` line only: later deaths are the random kill trials'.
    const applied = await run(['apply', 'plan.json'], dying.fs);
    if (!Number.isFinite(point)) {
      if (applied.code !== 0) throw new Error(`apply failed: ${applied.stderr}`);
      const firstSent = dying.writes.findIndex((write) => write.endsWith('(sent)'));
      if (firstSent < 0) throw new Error(`the apply wrote no sent line: ${dying.writes.join(', ')}`);
      return { writes: dying.writes.slice(0, firstSent + 1) };
    }
    // The dead process's lock names a live pid (this one): a real kill leaves a stale lock that
    // the next apply takes over (lock.test.ts); here it is removed as that takeover would.
    rmSync(lockDir, { recursive: true, force: true });
    mkdirSync(lockDir);
    const recovery: string[] = [];
    const resumed = await run(['apply', '--resume']);
    recovery.push(`resume:${resumed.code}`);
    if (resumed.code !== 0 && /no interrupted apply/.test(resumed.stderr)) {
      const again = await run(['apply', 'plan.json']);
      recovery.push(
        `apply plan.json:${again.code}${again.code === 0 ? '' : ` (${firstLine(again.stderr)})`}`,
      );
    }
    const after = await run(['plan', '--detailed-exitcode', '--format', 'json']);
    const remainingActions =
      after.code === 0 ? 0 : (JSON.parse(after.stdout) as { actions: unknown[] }).actions.length;
    const stats = (await (await fetch(`${sandbox.url}/__sandbox/stats`)).json()) as {
      updates_run: Array<{ count: number }>;
    };
    const maxRunsPerUpdate = Math.max(0, ...stats.updates_run.map((u) => u.count));
    const write = dying.writes[point - 1] ?? '(none: the apply made fewer writes)';
    return {
      writes: dying.writes,
      result: {
        point,
        write,
        recovery,
        remainingActions,
        maxRunsPerUpdate,
        ok: remainingActions === 0 && maxRunsPerUpdate <= 1,
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await sandbox.close();
  }
}

function firstLine(text: string): string {
  return text.split('\n').find((line) => line.trim() !== '') ?? '';
}

async function cliInProcess(
  dir: string,
  env: Record<string, string>,
  argv: string[],
  files: typeof fs,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const ctx: CliContext = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env: { ...env },
    cwd: dir,
    fs: files,
    signal: new AbortController().signal,
    now: () => new Date(),
  };
  const code = await runCli(argv, ctx);
  return { code, stdout, stderr };
}
