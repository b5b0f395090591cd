/**
 * The whole reference fleet behind a real nginx: the sandbox serving what `sandbox --generate
 * sites=10000,pending=6,ignored=3` serves (compat-6.1), Debian's nginx in front of it at its
 * default request-size settings (scripts/bench/nginx.ts), and the built CLI as a user runs it:
 * `plan --out`, `apply PLANFILE` (the saved-plan path), then `apply --auto-approve` against a
 * fresh sandbox (the path that re-reads before and after writing without a saved plan), and a
 * last `plan` that must find nothing left to do. Prints per step: wall time, exit code, requests
 * nginx logged (and any it refused), requests the sandbox served, actions done / failed /
 * unconfirmed. Exits 1 when a step does not end as it must.
 *
 *   npm run bench:fleet-nginx [-- --sites 10000] [--modes planfile,auto-approve]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { generateFleet, startSandbox } from '../../src/sandbox/index.js';
import { argumentOr } from './args.js';
import { forkSandbox, type ServedSandbox, serveToParent } from './harness.js';
import { type NginxFront, nginxBinary, startNginx } from './nginx.js';

const self = fileURLToPath(import.meta.url);
const root = fileURLToPath(new URL('../../', import.meta.url));
const mainJs = join(root, 'dist/bin/svc-gitops.js');
const sites = Number(argumentOr('sites', '10000'));
const modes = argumentOr('modes', 'planfile,auto-approve').split(',');

/** examples/minimal.yaml with approval wide enough for the whole fleet. */
const CONFIG = `${readFileSync(join(root, 'examples/minimal.yaml'), 'utf8')}approval:
  max_sites: 1000000
`;

interface Step {
  name: string;
  code: number | null;
  ms: number;
  nginx: { requests: number; refused: number; statuses: string };
  served: number;
  stdout: string;
  stderr: string;
}

/** Access log lines so far, and those with a 4xx/5xx status nginx answered itself or passed on. */
function accessLog(file: string): { requests: number; refused: number; statuses: Map<string, number> } {
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  const statuses = new Map<string, number>();
  for (const line of lines) {
    const status = /" (\d{3}) /.exec(line)?.[1] ?? '???';
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  const refused = [...statuses].filter(([s]) => s >= '400').reduce((n, [, c]) => n + c, 0);
  return { requests: lines.length, refused, statuses };
}

async function servedCount(served: ServedSandbox): Promise<number> {
  const response = await fetch(`${served.url}/__sandbox/stats`);
  return ((await response.json()) as { requests_total: number }).requests_total;
}

function runCli(args: string[], env: Record<string, string>, cwd: string) {
  return new Promise<{ code: number | null; ms: number; stdout: string; stderr: string }>((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [mainJs, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('close', (code) =>
      resolve({
        code,
        ms: performance.now() - started,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
  });
}

/** One CLI step through nginx, with what nginx and the sandbox saw during it. */
async function step(
  name: string,
  args: string[],
  ctx: { served: ServedSandbox; nginx: NginxFront; cwd: string; log: string },
): Promise<Step> {
  const before = { log: accessLog(ctx.log), served: await servedCount(ctx.served) };
  const env = { ...ctx.served.env, SVC_URL: ctx.nginx.url, SVC_REQUEST_TIMEOUT: '120000' };
  const run = await runCli(args, env, ctx.cwd);
  const after = accessLog(ctx.log);
  const statuses = [...after.statuses]
    .map(([s, c]) => [s, c - (before.log.statuses.get(s) ?? 0)] as const)
    .filter(([, c]) => c > 0)
    .map(([s, c]) => `${s}×${c}`)
    .join(' ');
  return {
    name,
    ...run,
    nginx: {
      requests: after.requests - before.log.requests,
      refused: after.refused - before.log.refused,
      statuses,
    },
    served: (await servedCount(ctx.served)) - before.served,
  };
}

function counts(stdout: string): string {
  try {
    const report = JSON.parse(stdout) as { counts?: Record<string, number> };
    const unverified = (stdout.match(/"unverified":true/g) ?? []).length;
    return `${JSON.stringify(report.counts ?? {})}, unverified ${unverified}`;
  } catch {
    return '(no JSON report)';
  }
}

function print(s: Step, extra = ''): void {
  console.log(
    `${s.name.padEnd(34)} exit ${s.code}  ${(s.ms / 1000).toFixed(1)} s  nginx ${s.nginx.requests} requests ` +
      `(${s.nginx.statuses || 'none'}; refused ${s.nginx.refused})  sandbox served ${s.served}${extra ? `  ${extra}` : ''}`,
  );
  if (s.code !== 0) console.log(s.stderr.slice(-3000));
}

/** One fresh sandbox behind one fresh nginx, for one approval path. */
async function world(): Promise<{ served: ServedSandbox; nginx: NginxFront; stop(): Promise<void> }> {
  const { served, stop } = await forkSandbox(self, ['--role', 'sandbox', '--sites', String(sites)]);
  const nginx = await startNginx(served.url);
  return {
    served,
    nginx,
    stop: async () => {
      await nginx.stop();
      stop();
    },
  };
}

async function main(): Promise<void> {
  if (!nginxBinary()) {
    console.log('fleet behind nginx: skipped, nginx is not installed (apt-get install nginx-light)');
    return;
  }
  if (!existsSync(mainJs)) throw new Error('dist/bin/svc-gitops.js is missing: npm run build first');
  console.log(
    `reference fleet behind nginx (default large_client_header_buffers 4 8k): ${sites} sites, 6 pending, 3 ignored per site`,
  );
  let ok = true;
  const started = performance.now();
  for (const mode of modes) {
    const w = await world();
    const cwd = mkdtempSync(join(tmpdir(), 'svc-nginx-fleet-'));
    writeFileSync(join(cwd, 'svc-gitops.yaml'), CONFIG);
    const ctx = { served: w.served, nginx: w.nginx, cwd, log: w.nginx.accessLog };
    try {
      const steps: Step[] = [];
      if (mode === 'planfile') {
        const planned = await step('plan --out plan.json', ['plan', '--out', 'plan.json', '--quiet'], ctx);
        const plan = JSON.parse(readFileSync(join(cwd, 'plan.json'), 'utf8')) as { actions: unknown[] };
        print(planned, `${plan.actions.length} actions`);
        steps.push(planned);
        const applied = await step('apply plan.json', ['apply', 'plan.json', '--format', 'json'], ctx);
        print(applied, counts(applied.stdout));
        steps.push(applied);
      } else {
        const applied = await step(
          'apply --auto-approve',
          ['apply', '--auto-approve', '--format', 'json'],
          ctx,
        );
        print(applied, counts(applied.stdout));
        steps.push(applied);
      }
      const again = await step('plan (after apply)', ['plan', '--format', 'json', '--quiet'], ctx);
      const left = (JSON.parse(again.stdout || '{"actions":[]}') as { actions: unknown[] }).actions.length;
      print(again, `${left} actions left`);
      steps.push(again);
      const failed = steps.some((s) => s.code !== 0 || s.nginx.refused > 0);
      const unconfirmed = steps.some((s) => /"unverified":true/.test(s.stdout));
      if (failed || unconfirmed || left !== 0) ok = false;
    } finally {
      await w.stop();
      rmSync(cwd, { recursive: true, force: true });
    }
  }
  console.log(
    `total ${((performance.now() - started) / 1000).toFixed(1)} s; ${ok ? 'all steps ended as they must' : 'FAILED'}`,
  );
  if (!ok) process.exitCode = 1;
}

if (argumentOr('role', 'main') === 'sandbox') {
  // What `svc-gitops sandbox --generate sites=N,pending=6,ignored=3` serves.
  const fleet = generateFleet({
    sites: Number(argumentOr('sites', '10000')),
    pendingPerSite: 6,
    ignoredPerSite: 3,
    seed: 1,
  });
  serveToParent(await startSandbox({ fleet, profile: 'compat-6.1' }));
} else {
  await main();
}
