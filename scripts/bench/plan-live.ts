/**
 * End-to-end plan benchmark against the sandbox serving a generated fleet (default 10,000 sites,
 * ~6 pending and 3 ignored updates per site). The sandbox runs in a child process so its CPU is
 * not charged to the client; each fleet variant is measured in a client process of its own so
 * the peak RSS it reports is its own. Printed side by side, from one run:
 *   - requests issued ÷ the minimum the fleet needs (must be 1.00),
 *   - createPlan + rendering ÷ the live read (target ≤ 0.25), twice: with the text rendering
 *     `svc-gitops plan` prints, and with all three renderings (text, markdown and JSON); each
 *     for the first round (cold: a fresh process, as one `svc-gitops plan` runs, JIT warm-up
 *     included) and for the rounds after `--warmup` (warm: the code optimised, the steady state),
 *   - the same text ratio against a read with `--latency` ms added to every request (a nearby
 *     dashboard; the strict ratios divide by a loopback read of cached pages),
 *   - peak RSS of the client (target ≤ 512 MB for the 50-pending variant).
 *
 *   npx tsx scripts/bench/plan-live.ts [--sites 10000] [--seed 2026] [--repeat 8] [--warmup 3]
 *     [--profile compat-6.1|spec] [--latency 20]
 */
import { spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createDashboardClient } from '../../src/dashboard/index.js';
import { createPlan } from '../../src/plan/index.js';
import { planJsonChunks } from '../../src/render/plan-json.js';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { planTextChunks } from '../../src/render/plan-text.js';
import {
  generateFleet,
  IGNORED_PER_PAGE_MAX,
  type RunningSandbox,
  type SandboxProfile,
  startSandbox,
} from '../../src/sandbox/index.js';
import { argumentOr } from './args.js';
import {
  basicAuth,
  benchSettings,
  desiredFromText,
  forkSandbox,
  ignoredPiecePaths,
  median,
  type ServedSandbox,
  serveToParent,
} from './harness.js';

const self = fileURLToPath(import.meta.url);
const sites = Number(argumentOr('sites', '10000'));
const seed = Number(argumentOr('seed', '2026'));
const profile = argumentOr('profile', 'compat-6.1') as SandboxProfile;
const role = argumentOr('role', 'main');
const pending = Number(argumentOr('pending', '6'));
const repeat = Number(argumentOr('repeat', '8'));
/** Rounds left out of the warm medians: V8 optimises the planner over the first few. */
const warmup = Number(argumentOr('warmup', '3'));
if (!Number.isInteger(warmup) || warmup < 0 || !Number.isInteger(repeat) || repeat <= warmup) {
  console.error('--warmup must be a whole number ≥ 0 and --repeat a whole number larger than it');
  process.exit(2);
}
const LATENCY_MS = Number(argumentOr('latency', '20'));

/** Child process: generates the fleet, serves it, and reports what a complete read must fetch. */
async function serve(): Promise<void> {
  // 8 installed plugins (the default) cannot carry 50 pending updates: the big variant gets more.
  const plugins = pending > 8 ? { pluginsPerSite: pending + 10 } : {};
  const fleet = generateFleet({ sites, pendingPerSite: pending, ignoredPerSite: 3, seed, ...plugins });
  const sandbox = await startSandbox({ fleet, profile });
  serveToParent(sandbox, { fleet: await minimumRequests(sandbox, fleet.sites.length) });
}

/** Client process for one variant: starts its sandbox child, measures, prints one JSON line. */
async function client(): Promise<void> {
  const args = [...passThrough(), '--pending', String(pending), '--role', 'serve'];
  const { served, stop } = await forkSandbox<ServedSandbox & { fleet: ServedFleet }>(self, args);
  try {
    const result = await measureVariant(served, pending);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    stop();
  }
}

/** The options every process shares (`--pending` is per variant, passed separately). */
function passThrough(): string[] {
  return [
    ...['--sites', String(sites), '--seed', String(seed), '--profile', profile],
    ...['--repeat', String(repeat), '--warmup', String(warmup), '--latency', String(LATENCY_MS)],
  ];
}

function main(): void {
  console.log(
    `plan-live: ${sites} sites, seed ${seed}, sandbox profile ${profile}, ${repeat} rounds: cold = round 1, warm = medians of rounds ${warmup + 1}-${repeat} (sandbox in a child process; client rateLimit and session budget off)`,
  );
  const results: VariantResult[] = [];
  for (const variant of [6, 50]) {
    const run = spawnSync(
      process.execPath,
      [...process.execArgv, self, ...passThrough(), '--pending', String(variant), '--role', 'client'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 },
    );
    if (run.status !== 0) {
      console.error(`variant ${variant} pending/site failed (exit ${run.status})`);
      process.exitCode = 1;
      continue;
    }
    results.push(JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as VariantResult);
  }
  printTable(results);
}

function printTable(results: VariantResult[]): void {
  const columns: Array<[string, (r: VariantResult) => string]> = [
    ['pending/site', (r) => String(r.pendingPerSite)],
    ['pending', (r) => String(r.pending)],
    ['actions', (r) => String(r.actions)],
    ['requests', (r) => `${r.requests}/${r.minimum}`],
    ['req÷min', (r) => (r.requests / r.minimum).toFixed(2)],
    ['read ms cold/warm', (r) => `${r.cold.read.toFixed(0)}/${r.readMs.toFixed(0)}`],
    ['createPlan ms cold/warm', (r) => `${r.cold.plan.toFixed(0)}/${r.planMs.toFixed(0)}`],
    [
      'text/md/json ms warm',
      (r) => `${r.textMs.toFixed(0)}/${r.markdownMs.toFixed(0)}/${r.jsonMs.toFixed(0)}`,
    ],
    ['(plan+text)÷read cold/warm', (r) => `${r.cold.textRatio.toFixed(3)}/${r.textRatio.toFixed(3)}`],
    ['(plan+all three)÷read cold/warm', (r) => `${r.cold.ratio.toFixed(3)}/${r.ratio.toFixed(3)}`],
    [`(plan+text)÷read at ${LATENCY_MS} ms/request, warm`, (r) => r.nearbyTextRatio.toFixed(3)],
    ['peak RSS MB', (r) => r.peakRssMb.toFixed(0)],
  ];
  const widths = columns.map(([name], i) =>
    Math.max(name.length, ...results.map((r) => columns[i]?.[1](r).length ?? 0)),
  );
  const line = (cells: string[]) => cells.map((cell, i) => cell.padStart(widths[i] ?? 0)).join('  ');
  console.log(line(columns.map(([name]) => name)));
  for (const r of results) console.log(line(columns.map(([, cell]) => cell(r))));
  for (const r of results) console.log(`  ${r.pendingPerSite}/site requests by listing: ${r.breakdown}`);
  console.log(
    'targets: req÷min = 1.00; (plan+render)÷read ≤ 0.25 (6/site); peak RSS ≤ 512 MB (50/site). `plan` renders text (+ JSON with --out); all three is the upper bound',
  );
  console.log(
    `cold = the first round of a fresh process (one \`svc-gitops plan\` run, JIT warm-up included; its read also fills the sandbox's page caches); warm = medians after ${warmup} warm-up rounds, whose reads are of cached pages. Both are loopback reads, faster than any real dashboard; the last column adds ${LATENCY_MS} ms per request (--latency)`,
  );
}

// ---------------------------------------------------------------------------------------------
// The minimum a complete read needs, from the served fleet and the catalogue's declared limits
// (never from the client's own bookkeeping): one catalogue read, plus for each listing
// ceil(items / largest per_page allowed) where its schema declares paging; the unpaged ignored
// listing in site pieces whose request lines fit 8 KiB.

interface ServedFleet {
  sites: number;
  pending: number;
  ignoreEntries: number | undefined;
  minimum: number;
  perListing: Record<string, number>;
}

interface ListingSchema {
  paged: boolean;
  perPage: number;
}

async function minimumRequests(sandbox: RunningSandbox, sites: number): Promise<ServedFleet> {
  const auth = basicAuth(sandbox.credentials);
  const get = async (path: string) => {
    const response = await fetch(`${sandbox.url}${path}`, { headers: { authorization: auth } });
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
    return response.json() as Promise<unknown>;
  };
  const catalogue = (await get('/wp-json/wp-abilities/v1/abilities')) as Array<{
    name: string;
    input_schema?: { properties?: Record<string, { maximum?: number; default?: number }> };
  }>;
  const schema = (ability: string): ListingSchema => {
    const properties = catalogue.find((a) => a.name === `svc/${ability}`)?.input_schema?.properties ?? {};
    const perPage = properties.per_page;
    return { paged: Boolean(properties.page && perPage), perPage: perPage?.maximum ?? perPage?.default ?? 1 };
  };
  // Visible pending entries, one per (site, item, language), exactly what list-updates-v1 pages over.
  const state = (await get('/__sandbox/state')) as { sites: Array<{ pending: unknown[] }> };
  const pending = state.sites.reduce((sum, site) => sum + site.pending.length, 0);
  const ignored = schema('list-ignored-updates-v1');
  // A paged ignore listing (spec profile) counts its entries itself; ask it for one item.
  const ignoreEntries = ignored.paged
    ? (
        (await get(
          '/wp-json/wp-abilities/v1/abilities/svc/list-ignored-updates-v1/run?input[page]=1&input[per_page]=1',
        )) as {
          total: number;
        }
      ).total
    : undefined;
  const pages = (s: ListingSchema, items: number) =>
    s.paged ? Math.max(1, Math.ceil(items / s.perPage)) : 1;
  // The ignored listing: paged without a declared maximum (spec), at the largest page the
  // sandbox serves; unpaged (6.1), in the fewest site pieces whose request lines fit 8 KiB.
  const ignoredRequests = ignored.paged
    ? Math.max(1, Math.ceil((ignoreEntries ?? 0) / IGNORED_PER_PAGE_MAX))
    : ignoredPiecePaths(
        '/wp-json/wp-abilities/v1/abilities/svc/list-ignored-updates-v1/run?',
        Array.from({ length: sites }, (_, i) => i + 1),
      ).length;
  const perListing = {
    catalogue: 1,
    'list-sites-v1': pages(schema('list-sites-v1'), sites),
    'list-updates-v1': pages(schema('list-updates-v1'), pending),
    'list-ignored-updates-v1': ignoredRequests,
  };
  await control(sandbox.url, 'POST', '/__sandbox/stats/reset');
  const minimum = Object.values(perListing).reduce((sum, n) => sum + n, 0);
  return { sites, pending, ignoreEntries, minimum, perListing };
}

// ---------------------------------------------------------------------------------------------
// The client side: the same steps as `svc-gitops plan`, timed one by one.

/** A realistic desired state for the generated fleet (site-NNNNN.fleet.test). */
const DESIRED_YAML = `version: 1
ignores:
  unmanaged: report
  rules:
    - sites: [all]
      plugins: [woocommerce/woocommerce.php, jetpack/jetpack.php]
updates:
  - name: routine
    sites: [all]
    kinds: [plugins, themes, translations]
    max: minor
  - name: core-patches
    sites: [all]
    kinds: [core]
    max: patch
holds:
  - sites: [all]
    plugin: elementor/elementor.php
    reason: page templates are being rebuilt
rollout:
  waves:
    - {name: canary, sites: ['site-0000?.fleet.test'], max_failures: 0}
    - {name: everyone-else, sites: [all], max_failures: 5}
`;

interface VariantResult {
  pendingPerSite: number;
  pending: number;
  actions: number;
  requests: number;
  minimum: number;
  breakdown: string;
  /** Round 1: a fresh process (JIT warm-up included) and the sandbox building its page cache. */
  cold: { read: number; plan: number; textRatio: number; ratio: number };
  /** Warm: medians of the rounds after the warm-up ones. */
  readMs: number;
  planMs: number;
  textMs: number;
  markdownMs: number;
  jsonMs: number;
  /** createPlan + text ÷ read: what `svc-gitops plan` does. */
  textRatio: number;
  /** createPlan + text ÷ a read with LATENCY_MS added to every request. */
  nearbyTextRatio: number;
  /** createPlan + text + markdown + JSON ÷ read. */
  ratio: number;
  peakRssMb: number;
}

/**
 * One more read with LATENCY_MS of server latency on every request: a nearby dashboard. The
 * strict ratio above divides by a loopback read of cached pages, which no real dashboard
 * matches; this one shows the ratio a user would see. The stats must not count it.
 */
async function readWithLatency(url: string, settings: ReturnType<typeof benchSettings>): Promise<number> {
  await control(url, 'PUT', '/__sandbox/faults', { rules: [{ kind: 'latency', delayMs: LATENCY_MS }] });
  const dashboard = createDashboardClient(settings);
  try {
    const start = performance.now();
    await dashboard.readLive();
    return performance.now() - start;
  } finally {
    await dashboard.close();
    await control(url, 'PUT', '/__sandbox/faults', { rules: [] });
  }
}

function countChars(chunks: Iterable<string>): number {
  let total = 0;
  for (const chunk of chunks) total += chunk.length;
  return total;
}

async function measureVariant(served: ServedSandbox & { fleet: ServedFleet }, pendingPerSite: number) {
  const desired = await desiredFromText(DESIRED_YAML);
  const settings = benchSettings(served);
  const url = served.url;

  // Every step runs `repeat` times, alternating. Round 1 is reported as it is (cold); the warm
  // figures are medians of the rounds after `warmup`, so on a shared machine one slow moment
  // does not decide them. Each read must issue the minimum.
  const samples = {
    read: [] as number[],
    plan: [] as number[],
    text: [] as number[],
    md: [] as number[],
    json: [] as number[],
  };
  let stats: SandboxStats | undefined;
  let actions = 0;
  let peakRssMb = 0;
  for (let round = 0; round < repeat; round++) {
    await control(url, 'POST', '/__sandbox/stats/reset');
    const dashboard = createDashboardClient(settings);
    let start = performance.now();
    const live = await dashboard.readLive();
    samples.read.push(performance.now() - start);
    await dashboard.close();
    const roundStats = (await control(url, 'GET', '/__sandbox/stats')) as SandboxStats;
    if (stats && roundStats.requests_total !== stats.requests_total)
      throw new Error(
        `read ${round + 1} issued ${roundStats.requests_total} requests, read 1 ${stats.requests_total}`,
      );
    stats = roundStats;

    start = performance.now();
    const plan = createPlan(desired, live, { now: new Date(), lifetimeMinutes: 60 });
    samples.plan.push(performance.now() - start);
    actions = plan.actions.length;
    start = performance.now();
    countChars(planTextChunks(plan, { groupBy: 'site', colour: false }));
    samples.text.push(performance.now() - start);
    start = performance.now();
    renderPlanMarkdown(plan);
    samples.md.push(performance.now() - start);
    start = performance.now();
    countChars(planJsonChunks(plan));
    samples.json.push(performance.now() - start);
    // One plan run's peak (what `svc-gitops plan` needs); later rounds add uncollected garbage.
    if (round === 0) peakRssMb = process.resourceUsage().maxRSS / 1024;
  }
  if (!stats) throw new Error('no round ran');
  const nearbyReadMs = await readWithLatency(url, settings);
  const counted = stats;
  const issued = (name: string) =>
    name === 'catalogue'
      ? (counted.requests['GET /abilities'] ?? 0)
      : (counted.abilities[`svc/${name}`] ?? 0);
  const breakdown = Object.entries(served.fleet.perListing)
    .map(([name, min]) => `${name} ${issued(name)}/${min}`)
    .join(', ');
  const [readMs, planMs, textMs, markdownMs, jsonMs] = [
    samples.read,
    samples.plan,
    samples.text,
    samples.md,
    samples.json,
  ].map((values) => median(values.slice(warmup))) as [number, number, number, number, number];
  const first = (values: number[]) => values[0] ?? Number.NaN;
  const cold = {
    read: first(samples.read),
    plan: first(samples.plan),
    textRatio: (first(samples.plan) + first(samples.text)) / first(samples.read),
    ratio:
      (first(samples.plan) + first(samples.text) + first(samples.md) + first(samples.json)) /
      first(samples.read),
  };
  return {
    pendingPerSite,
    pending: served.fleet.pending,
    actions,
    requests: counted.requests_total,
    minimum: served.fleet.minimum,
    breakdown,
    cold,
    readMs,
    planMs,
    textMs,
    markdownMs,
    jsonMs,
    textRatio: (planMs + textMs) / readMs,
    nearbyTextRatio: (planMs + textMs) / nearbyReadMs,
    ratio: (planMs + textMs + markdownMs + jsonMs) / readMs,
    peakRssMb,
  };
}

/**
 * A sandbox control call on a connection of its own: between rounds the client is busy longer
 * than the server's keep-alive timeout, and a pooled socket could be closed under the request.
 */
function control(base: string, method: string, path: string, json?: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const headers = json === undefined ? {} : { 'content-type': 'application/json' };
    const request = httpRequest(`${base}${path}`, { method, headers, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve(JSON.parse(body)));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(json === undefined ? undefined : JSON.stringify(json));
  });
}

interface SandboxStats {
  requests_total: number;
  requests: Record<string, number>;
  abilities: Record<string, number>;
}

// Dispatch last: every constant above is initialised by now.
if (role === 'serve') await serve();
else if (role === 'client') await client();
else main();
