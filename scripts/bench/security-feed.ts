/**
 * The vulnerability feed benchmark (npm run bench:security), not part of the suite:
 *
 * 1. parse: a generated Wordfence-shaped feed the size of the real one (42,500 records of about
 *    3,800 bytes, ~160 MB) is read by `readFeedFile` in a child process holding the reference
 *    fleet's live state and keeping only its items' advisories, as the engine reads it; that
 *    child's peak RSS (process.resourceUsage) must stay at or below --max-rss-mb (100). Beside
 *    it: the same child without a feed (its floor), and a child keeping every advisory;
 * 2. matching: createPlan on the 10,000-site reference fleet (scripts/bench/fixtures.ts, 6
 *    pending updates per site) with the feed's advisories (kept for the fleet, as the engine
 *    does) ÷ the same plan without a feed, alternating in one run, medians of --rounds (7), in
 *    wall time and in CPU time; each at most --max-ratio (1.2).
 *
 * Options: --records N, --record-bytes N, --sites N, --rounds N, --max-rss-mb N, --max-ratio N.
 * Exits 1 when a limit is exceeded. The suite runs a small seeded version (test/security).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { createPlan, fleetFeedItems } from '../../src/plan/index.js';
import { readFeedFile } from '../../src/security/index.js';
import type { DesiredState, LiveState, Plan, SecurityConfig } from '../../src/types.js';
import { argumentOr } from './args.js';
import { benchDesiredState, generateFleet } from './fixtures.js';
import { alternate, median, ratioText, timed } from './harness.js';
import { writeWordfenceFeed } from './security-feed-fixture.js';

interface ParseFigures {
  records: number;
  advisories: number;
  bytes: number;
  ms: number;
  maxRssKb: number;
}

/** The parsing child bundled into `dir`, to be run by plain node. */
async function bundleChild(dir: string): Promise<string> {
  const bundle = join(dir, 'child.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('./security-feed-child.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: bundle,
    logLevel: 'error',
    // undici's CommonJS needs `require` inside an ES module bundle.
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  });
  return bundle;
}

/** One run of the child (a mode of security-feed-child.ts); its figures. */
function parseInChild(bundle: string, args: string[]): ParseFigures {
  const mode = args[2];
  const child = spawnSync(process.execPath, [bundle, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0) throw new Error(`the parsing child (${mode}) failed (exit ${child.status})`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as ParseFigures;
}

const mib = (kb: number) => (kb / 1024).toFixed(1);

const SECURITY: SecurityConfig = {
  source: { type: 'file', path: 'feed.json', format: 'wordfence' },
  refreshAfter: { text: '1h', ms: 3_600_000 },
  maxAge: { text: '2d', ms: 172_800_000 },
  bypass: { soak: true, window: true },
  approval: { coreNeedsApproval: true, majorNeedsApproval: true },
  sourceRef: { file: 'svc-gitops.yaml', line: 1, col: 1, path: '/security' },
};

/** The fleet's items as the child reads them: distinct `[kind, slug]` of its pending updates. */
function writeItems(dir: string, live: LiveState): string {
  const items = new Map(live.pending.map((u) => [`${u.kind} ${u.slug}`, [u.kind, u.slug]]));
  const file = join(dir, 'items.json');
  writeFileSync(file, JSON.stringify([...items.values()]));
  return file;
}

/** The parse figures, printed; whether they are within the limit. */
async function parse(dir: string, path: string, live: LiveState, records: number, maxRssMb: number) {
  const bundle = await bundleChild(dir);
  const mb = statSync(path).size / 1_048_576;
  const sites = String(live.sites.length);
  const items = parseInChild(bundle, [path, sites, 'items', writeItems(dir, live)]);
  const fleet = parseInChild(bundle, [path, sites, 'fleet']);
  const floor = parseInChild(bundle, [path, sites, 'none']);
  const all = parseInChild(bundle, [path, sites, 'all']);
  console.log(
    `  parse (child process, the fleet's items as the prefilter): ${items.records} records → ${items.advisories} advisories kept in ${items.ms.toFixed(0)} ms (${(mb / (items.ms / 1000)).toFixed(0)} MiB/s); peak RSS ${mib(items.maxRssKb)} MiB; limit ${maxRssMb} MiB`,
  );
  console.log(
    `    beside it, peak RSS of a child keeping all ${all.advisories} advisories: ${mib(all.maxRssKb)} MiB; of a child holding the ${sites}-site live state and reading the feed as the engine does: ${mib(fleet.maxRssKb)} MiB, ${mib(floor.maxRssKb)} MiB without the feed (the feed adds ${mib(fleet.maxRssKb - floor.maxRssKb)} MiB)`,
  );
  return (
    items.records === records && items.advisories === fleet.advisories && items.maxRssKb / 1024 <= maxRssMb
  );
}

/** One createPlan: its wall time and the process's CPU time (all threads, the collector's too). */
function planTimed(run: () => Plan) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = run();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return Promise.resolve({ ms, cpuMs: (used.user + used.system) / 1000, value });
}

/**
 * createPlan with the feed ÷ without, alternating; printed as wall time and as CPU time (the
 * machine may be shared: CPU time leaves out the time other processes took the cores); whether
 * both are within the limit.
 */
async function matching(path: string, live: LiveState, rounds: number, maxRatio: number) {
  const { advisories } = await readFeedFile(path, 'wordfence', { keep: fleetFeedItems(live) });
  const plain: DesiredState = benchDesiredState();
  const withFeed: DesiredState = { ...plain, security: SECURITY };
  const now = new Date('2026-11-28T00:00:00Z');
  const feed = { source: path, fetched_at: now.toISOString() };
  const security = { advisories, feed };
  const runs = await alternate(
    rounds,
    () => planTimed(() => createPlan(withFeed, live, { now, lifetimeMinutes: 60, security })),
    () => planTimed(() => createPlan(plain, live, { now, lifetimeMinutes: 60 })),
  );
  const sample = runs.a[0]!.value;
  const fixes = sample.security?.updates.reduce((n, u) => n + u.site_ids.length, 0) ?? 0;
  const vulnerable = sample.security?.vulnerable.reduce((n, u) => n + u.site_ids.length, 0) ?? 0;
  const wall = [median(runs.a.map((r) => r.ms)), median(runs.b.map((r) => r.ms))] as const;
  const cpu = [median(runs.a.map((r) => r.cpuMs)), median(runs.b.map((r) => r.cpuMs))] as const;
  console.log(
    `  matching on ${live.sites.length} sites (${live.pending.length} pending updates, ${advisories.length} advisories kept; ${fixes} security updates, ${vulnerable} site-items vulnerable): createPlan with the feed ÷ without, medians of ${rounds}, alternating: wall ${ratioText(...wall)}; CPU ${ratioText(...cpu)}; limit ${maxRatio}`,
  );
  return wall[0] / wall[1] <= maxRatio && cpu[0] / cpu[1] <= maxRatio;
}

async function main(): Promise<void> {
  const records = Number(argumentOr('records', '42500'));
  const recordBytes = Number(argumentOr('record-bytes', '3800'));
  const sites = Number(argumentOr('sites', '10000'));
  const rounds = Number(argumentOr('rounds', '7'));
  const maxRssMb = Number(argumentOr('max-rss-mb', '100'));
  const maxRatio = Number(argumentOr('max-ratio', '1.2'));
  const dir = mkdtempSync(join(tmpdir(), 'svc-gitops-bench-feed-'));
  let ok = true;
  try {
    const path = join(dir, 'feed.json');
    const written = await timed(() => writeWordfenceFeed(path, { records, recordBytes, seed: 11 }));
    const bytes = statSync(path).size;
    console.log(
      `feed: ${records} records, ${(bytes / 1e6).toFixed(1)} MB (${(bytes / 1_048_576).toFixed(1)} MiB) generated in ${written.ms.toFixed(0)} ms`,
    );
    const live = generateFleet({ sites, pendingPerSite: 6, ignoredPerSite: 3 });
    ok = (await parse(dir, path, live, records, maxRssMb)) && ok;
    ok = (await matching(path, live, rounds, maxRatio)) && ok;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (!ok) {
    console.log('FAILED: a figure is beyond its limit');
    process.exitCode = 1;
  }
}

await main();
