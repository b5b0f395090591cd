/**
 * Seeded plan runs through the fault proxy (fault-proxy.ts) in front of the sandbox serving the
 * demo fleet. Each run is the real CLI (`plan --format json`, in process) and ends one of three
 * ways: a plan equal to the one read without faults (success), a documented error and exit 1
 * with no stack trace and no plan on stdout (clean failure), or anything else (wrong: a plan that
 * differs, or an unclean failure). Wrong runs must stay at 0 whatever the fault rate.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/run.js';
import { loadFleet, type SandboxProfile, startSandbox } from '../../src/sandbox/index.js';
import { startFaultProxy } from './fault-proxy.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const STACK_TRACE = /^\s+at .+:\d+:\d+\)?$/m;

export interface FaultSoakOptions {
  runs: number;
  seed: number;
  /** Fraction of requests faulted, 0..1. */
  rate: number;
  profile: SandboxProfile;
  /** Backoff settings of the runs; the defaults (1 s, 2 s) are real but make a soak slow. */
  retryBaseDelay?: number;
  retryMaxDelay?: number;
  onRun?: (run: FaultRun) => void;
}

export interface FaultRun {
  index: number;
  outcome: 'success' | 'clean failure' | 'wrong';
  /** The error code of a failure, or what was wrong. */
  detail?: string;
  requests: number;
  faults: number;
}

export interface FaultSoakResult {
  runs: number;
  successes: number;
  cleanFailures: number;
  wrongPlans: number;
  failureCodes: Record<string, number>;
  faults: Record<string, number>;
  requests: number;
}

export async function runFaultSoak(options: FaultSoakOptions): Promise<FaultSoakResult> {
  const sandbox = await startSandbox({
    fleet: await loadFleet(join(ROOT, 'examples/sandbox/demo-fleet.yaml')),
    profile: options.profile,
  });
  const proxy = await startFaultProxy(sandbox.url);
  const home = mkdtempSync(join(tmpdir(), 'svc-gitops-fault-soak-'));
  const env = {
    ...sandbox.env(),
    SVC_URL: proxy.url,
    SVC_RATE_LIMIT: '0',
    SVC_RETRY_BASE_DELAY: String(options.retryBaseDelay ?? 20),
    SVC_RETRY_MAX_DELAY: String(options.retryMaxDelay ?? 100),
    HOME: home,
    NO_COLOR: '1',
  };
  const result: FaultSoakResult = {
    runs: 0,
    successes: 0,
    cleanFailures: 0,
    wrongPlans: 0,
    failureCodes: {},
    faults: {},
    requests: 0,
  };
  try {
    proxy.reseed(0, 0);
    const baseline = await planRun(env);
    if (baseline.code !== 0) throw new Error(`the plan without faults failed: ${baseline.stderr}`);
    const expected = comparable(baseline.stdout);
    for (let index = 0; index < options.runs; index++) {
      proxy.reseed(options.seed * 1_000_003 + index, options.rate);
      const before = proxy.requests();
      const run = await planRun(env);
      const judged = judge(run, expected);
      const injected = proxy.injected();
      const faults = Object.values(injected).reduce((n, c) => n + c, 0);
      for (const [kind, count] of Object.entries(injected))
        result.faults[kind] = (result.faults[kind] ?? 0) + count;
      const requests = proxy.requests() - before;
      result.requests += requests;
      result.runs++;
      if (judged.outcome === 'success') result.successes++;
      else if (judged.outcome === 'clean failure') result.cleanFailures++;
      else result.wrongPlans++;
      if (judged.detail && judged.outcome !== 'success')
        result.failureCodes[judged.detail] = (result.failureCodes[judged.detail] ?? 0) + 1;
      options.onRun?.({ index, ...judged, requests, faults });
    }
  } finally {
    await proxy.close();
    await sandbox.close();
    rmSync(home, { recursive: true, force: true });
  }
  return result;
}

interface Captured {
  code: number;
  stdout: string;
  stderr: string;
}

async function planRun(env: Record<string, string>): Promise<Captured> {
  let stdout = '';
  let stderr = '';
  const ctx: CliContext = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env,
    cwd: ROOT,
    fs: await import('node:fs'),
    signal: new AbortController().signal,
    now: () => new Date(),
  };
  const code = await runCli(['plan', '-c', 'examples/agency.yaml', '--format', 'json'], ctx);
  return { code, stdout, stderr };
}

/** The plan without what differs between two reads of the same state (id and times). */
function comparable(stdout: string): string {
  const {
    id: _id,
    created_at: _created,
    expires_at: _expires,
    ...rest
  } = JSON.parse(stdout) as Record<string, unknown>;
  return JSON.stringify(rest);
}

function judge(run: Captured, expected: string): Pick<FaultRun, 'outcome' | 'detail'> {
  if (run.code === 0) {
    try {
      return comparable(run.stdout) === expected
        ? { outcome: 'success' }
        : { outcome: 'wrong', detail: 'a plan that differs from the one read without faults' };
    } catch {
      return { outcome: 'wrong', detail: 'exit 0 without a JSON plan' };
    }
  }
  const code = /^svc-gitops: error \[([A-Z_]+)\]/m.exec(run.stderr)?.[1];
  if (run.code === 1 && code && run.stdout === '' && !STACK_TRACE.test(run.stderr))
    return { outcome: 'clean failure', detail: code };
  return { outcome: 'wrong', detail: `exit ${run.code} without a documented error` };
}
