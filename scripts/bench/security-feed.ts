/**
 * The vulnerability feed benchmark (npm run bench:security), not part of the suite:
 *
 * 1. parse: a generated Wordfence-shaped feed the size of the real one (42,500 records, ~160 MB)
 *    is read by `readFeedFile` in a child process, whose peak RSS (process.resourceUsage) must
 *    stay at or below --max-rss-mb (100): the feed is streamed, never held whole;
 * 2. matching: createPlan on the 10,000-site reference fleet (scripts/bench/fixtures.ts, 6
 *    pending updates per site) with the feed's advisories ÷ the same plan without a feed,
 *    alternating in one run, medians of --rounds (7); at most --max-ratio (1.2).
 *
 * Options: --records N, --record-bytes N, --sites N, --rounds N, --max-rss-mb N, --max-ratio N.
 * Exits 1 when a limit is exceeded. The suite runs a small seeded version (test/security).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { createPlan } from '../../src/plan/index.js';
import { readFeedFile } from '../../src/security/index.js';
import type { DesiredState, SecurityConfig } from '../../src/types.js';
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

/** The parsing child, bundled into `dir` and run by plain node; its figures. */
async function parseInChild(dir: string, path: string): Promise<ParseFigures> {
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
  const child = spawnSync(process.execPath, [bundle, path], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0) throw new Error(`the parsing child failed (exit ${child.status})`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as ParseFigures;
}

/** Plain node's own floor: the same process started and stopped without reading a feed. */
function baselineRssKb(): number {
  const child = spawnSync(
    process.execPath,
    ['-e', 'process.stdout.write(String(process.resourceUsage().maxRSS))'],
    {
      encoding: 'utf8',
    },
  );
  return Number(child.stdout);
}

const SECURITY: SecurityConfig = {
  source: { type: 'file', path: 'feed.json', format: 'wordfence' },
  refreshAfter: { text: '1h', ms: 3_600_000 },
  maxAge: { text: '2d', ms: 172_800_000 },
  bypass: { soak: true, window: true },
  approval: { coreNeedsApproval: true, majorNeedsApproval: true },
  sourceRef: { file: 'svc-gitops.yaml', line: 1, col: 1, path: '/security' },
};

async function main(): Promise<void> {
  const records = Number(argumentOr('records', '42500'));
  const recordBytes = Number(argumentOr('record-bytes', '3800'));
  const sites = Number(argumentOr('sites', '10000'));
  const rounds = Number(argumentOr('rounds', '7'));
  const maxRssMb = Number(argumentOr('max-rss-mb', '100'));
  const maxRatio = Number(argumentOr('max-ratio', '1.2'));
  const dir = mkdtempSync(join(tmpdir(), 'svc-gitops-bench-feed-'));
  let failed = false;
  try {
    const path = join(dir, 'feed.json');
    const written = await timed(() => writeWordfenceFeed(path, { records, recordBytes, seed: 11 }));
    const mb = statSync(path).size / 1_048_576;
    console.log(`feed: ${records} records, ${mb.toFixed(1)} MiB generated in ${written.ms.toFixed(0)} ms`);

    const parsed = await parseInChild(dir, path);
    const rssMb = parsed.maxRssKb / 1024;
    const floorMb = baselineRssKb() / 1024;
    console.log(
      `  parse (child process): ${parsed.records} records → ${parsed.advisories} advisories in ${parsed.ms.toFixed(0)} ms (${(mb / (parsed.ms / 1000)).toFixed(0)} MiB/s); peak RSS ${rssMb.toFixed(1)} MiB (the same process without a feed: ${floorMb.toFixed(1)} MiB); limit ${maxRssMb} MiB`,
    );
    if (parsed.records !== records || rssMb > maxRssMb) failed = true;

    const { advisories } = await readFeedFile(path, 'wordfence');
    const live = generateFleet({ sites, pendingPerSite: 6, ignoredPerSite: 3 });
    const plain: DesiredState = benchDesiredState();
    const withFeed: DesiredState = { ...plain, security: SECURITY };
    const now = new Date('2026-11-28T00:00:00Z');
    const feed = { source: path, fetched_at: now.toISOString() };
    const measure =
      (desired: DesiredState, security?: { advisories: typeof advisories; feed: typeof feed }) => () =>
        timed(() =>
          createPlan(desired, live, { now, lifetimeMinutes: 60, ...(security ? { security } : {}) }),
        );
    const runs = await alternate(rounds, measure(withFeed, { advisories, feed }), measure(plain));
    const sample = runs.a[0]!.value;
    const fixes = sample.security?.updates.reduce((n, u) => n + u.site_ids.length, 0) ?? 0;
    const vulnerable = sample.security?.vulnerable.reduce((n, u) => n + u.site_ids.length, 0) ?? 0;
    const withMs = median(runs.a.map((r) => r.ms));
    const withoutMs = median(runs.b.map((r) => r.ms));
    console.log(
      `  matching on ${sites} sites (${live.pending.length} pending updates, ${advisories.length} advisories): createPlan with the feed ÷ without: ${ratioText(withMs, withoutMs)} (medians of ${rounds}, alternating; ${fixes} security updates, ${vulnerable} site-items vulnerable); limit ${maxRatio}`,
    );
    if (withMs / withoutMs > maxRatio) failed = true;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (failed) {
    console.log('FAILED: a figure is beyond its limit');
    process.exitCode = 1;
  }
}

await main();
