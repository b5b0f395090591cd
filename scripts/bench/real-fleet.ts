/**
 * Fleet scale on the real dashboard (issue 31 item 4): with the harness of
 * `scripts/real-dashboard/` up (its SVC_REAL_* settings in the environment), for each fleet
 * size sets the dashboard's extra sites (`real-dashboard.sh fleet N`), runs
 * `svc-gitops plan -c examples/minimal.yaml --format json` at default settings (the built
 * `dist/bin/svc-gitops.js`), and reads the dashboard's own request log for the run's requests.
 * Per size it prints: wall time, requests, Σ server time, server time per site and its ratio to
 * the first size's, plan wall ÷ (Σ server time ÷ concurrency), the longest request against the
 * request timeout, the load average, and the requests by route. The run's GET requests are then
 * sent again one at a time (replay.ts): on a host whose cores are shared, server times in the run
 * include waiting for a core behind the run's other requests, so the per-site cost of the
 * request set is also given alone.
 *
 * The floor Σ server time ÷ concurrency is the time the dashboard's workers needed for the
 * requests the plan made, kept busy `concurrency` at a time (the default 8, the harness's PHP
 * workers). The plan's requests stand for the minimal set: the chunked update reads take a few
 * more requests than the fewest a reader knowing every site's count beforehand would, and server
 * times are measured under the plan's own concurrency, not searched for the best one.
 *
 *   npm run bench:real-fleet -- [--sizes 1000,5000,10000] [--config examples/minimal.yaml]
 */
import { spawn, spawnSync } from 'node:child_process';
import { openSync, readSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { argumentOr } from './args.js';
import { replay } from './replay.js';
import { type LoggedRequest, parseRequestLog, routeOf } from './request-log.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const harness = join(root, 'scripts/real-dashboard/real-dashboard.sh');
const mainJs = join(root, 'dist/bin/svc-gitops.js');
const sizes = argumentOr('sizes', '1000,5000,10000').split(',').filter(Boolean).map(Number);
const config = argumentOr('config', 'examples/minimal.yaml');
const CONCURRENCY = 8;
const TIMEOUT_MS = 30_000;

function rig(...args: string[]): string {
  const run = spawnSync('bash', [harness, ...args], { encoding: 'utf8', env: process.env });
  if (run.status !== 0) throw new Error(`real-dashboard.sh ${args.join(' ')} failed: ${run.stderr.trim()}`);
  return run.stdout;
}

/** The client's settings as `real-dashboard.sh env` prints them (`export NAME=value` lines). */
function rigEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of rig('env').split('\n')) {
    const match = /^export ([A-Z_]+)=(.*)$/.exec(line.trim());
    if (match?.[1] && match[2] !== undefined) env[match[1]] = match[2].replace(/^'(.*)'$/, '$1');
  }
  return env;
}

function logTail(file: string, from: number): string {
  const size = statSync(file).size;
  const buffer = Buffer.alloc(size - from);
  const fd = openSync(file, 'r');
  readSync(fd, buffer, 0, buffer.length, from);
  return buffer.toString('utf8');
}

function runPlan(env: Record<string, string>): Promise<{ ms: number; code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [mainJs, 'plan', '-c', config, '--format', 'json'], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('exit', (code) => resolve({ ms: performance.now() - started, code, stderr }));
  });
}

interface SizeResult {
  sites: number;
  wallMs: number;
  code: number | null;
  requests: LoggedRequest[];
  load: string;
  /** The same requests sent again one at a time: their server times alone, and the wall. */
  alone: LoggedRequest[];
  aloneWallMs: number;
}

async function measure(size: number, env: Record<string, string>, logFile: string): Promise<SizeResult> {
  const set = JSON.parse(rig('fleet', String(size)).trim().split('\n').at(-1) ?? '{}') as { sites: number };
  const before = statSync(logFile).size;
  const loadBefore = loadavg()[0] ?? 0;
  const plan = await runPlan(env);
  const loadAfter = loadavg()[0] ?? 0;
  const requests = parseRequestLog(logTail(logFile, before));
  const replayed = statSync(logFile).size;
  const aloneWallMs = await replay(requests, env, 1);
  if (plan.code !== 0 && plan.code !== 2)
    console.log(`  plan exited ${plan.code}: ${plan.stderr.trim().slice(0, 400)}`);
  return {
    sites: set.sites,
    wallMs: plan.ms,
    code: plan.code,
    requests,
    load: `${loadBefore.toFixed(1)}–${loadAfter.toFixed(1)}`,
    alone: parseRequestLog(logTail(logFile, replayed)),
    aloneWallMs,
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const total = (requests: readonly LoggedRequest[]) => requests.reduce((sum, r) => sum + r.ms, 0);

/** Per-site server time in the plan and alone; ratios to the first size's `[inPlan, alone]`. */
function report(result: SizeResult, first: [number, number] | undefined): [number, number] {
  const serverMs = total(result.requests);
  const aloneMs = total(result.alone);
  const perSite: [number, number] = [serverMs / result.sites, aloneMs / result.sites];
  const ratio = (i: 0 | 1) => (first ? ` (${(perSite[i] / first[i]).toFixed(2)} × the first size's)` : '');
  const longest = result.requests.reduce<LoggedRequest | undefined>(
    (a, r) => (a && a.ms >= r.ms ? a : r),
    undefined,
  );
  const floorMs = serverMs / CONCURRENCY;
  console.log(`${result.sites} sites (load average ${result.load}), plan exit ${result.code}`);
  console.log(`  wall                                   ${seconds(result.wallMs)}`);
  console.log(`  requests                               ${result.requests.length}`);
  console.log(`  Σ server time in the plan              ${seconds(serverMs)}`);
  console.log(`  server time per site in the plan       ${perSite[0].toFixed(1)} ms${ratio(0)}`);
  console.log(
    `  the same requests one at a time        Σ ${seconds(aloneMs)} (wall ${seconds(result.aloneWallMs)}), ${perSite[1].toFixed(1)} ms a site${ratio(1)}`,
  );
  console.log(
    `  plan wall ÷ (Σ server ÷ ${CONCURRENCY})              ${seconds(result.wallMs)} / ${seconds(floorMs)} = ${(result.wallMs / floorMs).toFixed(2)}`,
  );
  console.log(
    `  plan wall ÷ the requests one at a time  ${seconds(result.wallMs)} / ${seconds(aloneMs)} = ${(result.wallMs / aloneMs).toFixed(2)}`,
  );
  console.log(
    `  longest request ÷ timeout              ${longest ? `${longest.ms} ms (${routeOf(longest.uri)})` : '—'} / ${TIMEOUT_MS} ms`,
  );
  printRoutes(result.requests, result.alone);
  return perSite;
}

function printRoutes(inPlan: readonly LoggedRequest[], alone: readonly LoggedRequest[]): void {
  const group = (requests: readonly LoggedRequest[]) => {
    const byRoute = new Map<string, number[]>();
    for (const r of requests) byRoute.set(routeOf(r.uri), [...(byRoute.get(routeOf(r.uri)) ?? []), r.ms]);
    return byRoute;
  };
  const alones = group(alone);
  for (const [route, times] of [...group(inPlan)].sort((a, b) => b[1].length - a[1].length)) {
    const mean = (list: number[]) => Math.round(list.reduce((x, y) => x + y, 0) / Math.max(1, list.length));
    const single = alones.get(route) ?? [];
    console.log(
      `    ${route.padEnd(28)} ${String(times.length).padStart(4)} × ${mean(times)} ms (max ${Math.max(...times)}); alone ${mean(single)} ms (max ${Math.max(0, ...single)})`,
    );
  }
}

async function main(): Promise<void> {
  if (!process.env.SVC_REAL_BASE) {
    console.log('set the SVC_REAL_* settings of a running real-dashboard rig (real-dashboard.sh up)');
    process.exit(2);
  }
  const env = rigEnv();
  const logFile = join(process.env.SVC_REAL_BASE, 'logs', 'dash-requests.log');
  let first: [number, number] | undefined;
  for (const size of sizes) {
    const result = await measure(size, env, logFile);
    const perSite = report(result, first);
    first ??= perSite;
  }
}

await main();
