/**
 * Live-read benchmark on a generated 10,000-site fleet (sandbox, compat-6.1). Prints:
 *  - requests issued ÷ minimum requests (must be 1.00): the minimum is one catalogue page, the
 *    list-sites pages at per_page 100, the list-updates pages at per_page 200 and the unpaged
 *    ignored listing in the fewest site pieces whose request lines fit 8 KiB (ignoredPiecePaths);
 *  - the live read's time ÷ a bare fetch loop over the same pages at the same concurrency
 *    (target ≤ 1.2), measured side by side, best of several rounds each;
 *  - peak memory (RSS and heap) during the live read.
 * The sandbox runs in a child process (as a real dashboard would be remote), so its own work does
 * not share the event loop with the client being measured.
 * Usage: npx tsx scripts/bench/live-read.ts [--sites N] [--rounds N] [--concurrency N]
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { createDashboardClient } from '../../src/dashboard/index.js';
import { generateFleet, startSandbox } from '../../src/sandbox/index.js';
import {
  alternate,
  basicAuth,
  benchSettings,
  best,
  forkSandbox,
  ignoredPiecePaths,
  inParallel,
  median,
  ratioText,
  serveToParent,
  timed,
} from './harness.js';

const { values } = parseArgs({
  options: {
    sites: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '7' },
    concurrency: { type: 'string', default: '4' },
    serve: { type: 'boolean', default: false },
  },
});
const sites = Number(values.sites);
const rounds = Number(values.rounds);
const concurrency = Number(values.concurrency);

if (values.serve) {
  // Child mode: serve the generated fleet until the parent says stop.
  const sandbox = await startSandbox({
    fleet: generateFleet({ sites, pendingPerSite: 6, ignoredPerSite: 1, seed: 42 }),
  });
  serveToParent(sandbox);
} else {
  await measure();
}

async function measure(): Promise<void> {
  const { served: sandbox, stop } = await forkSandbox(fileURLToPath(import.meta.url), [
    '--serve',
    '--sites',
    String(sites),
  ]);
  const settings = benchSettings(sandbox, { concurrency });
  const auth = basicAuth(sandbox.credentials);
  const run = (name: string) =>
    `${sandbox.url}/wp-json/wp-abilities/v1/abilities/${settings.namespace}/${name}/run`;

  /**
   * The same requests in the same dependency order (catalogue, then the first pages, then the
   * rest), fetched and JSON-parsed by a plain loop at the same concurrency. Like any reader it
   * keeps what it parsed until the end, so both sides pay for holding the data.
   */
  async function bareLoop(): Promise<{ requests: number; ms: number; kept: number }> {
    const agent = new Agent({ connections: concurrency });
    const kept: unknown[] = [];
    const get = async (url: string) => {
      const res = await request(url, { headers: { authorization: auth }, dispatcher: agent });
      const body = JSON.parse(await res.body.text()) as { total: number };
      kept.push(body);
      return body;
    };
    const started = performance.now();
    await get(`${sandbox.url}/wp-json/wp-abilities/v1/abilities?per_page=100&page=1`);
    const [firstSites, firstUpdates] = await Promise.all([
      get(`${run('list-sites-v1')}?input[page]=1&input[per_page]=100`),
      get(`${run('list-updates-v1')}?input[page]=1&input[per_page]=200`),
    ]);
    // The ignored pieces need the site IDs, as the client's do: they follow the site listing.
    const ids = Array.from({ length: firstSites.total }, (_, i) => i + 1);
    const ignoredPath = `/wp-json/wp-abilities/v1/abilities/${settings.namespace}/list-ignored-updates-v1/run?`;
    const urls: string[] = ignoredPiecePaths(ignoredPath, ids).map((path) => sandbox.url + path);
    for (let p = 2; p <= Math.ceil(firstSites.total / 100); p++)
      urls.push(`${run('list-sites-v1')}?input[page]=${p}&input[per_page]=100`);
    for (let p = 2; p <= Math.ceil(firstUpdates.total / 200); p++)
      urls.push(`${run('list-updates-v1')}?input[page]=${p}&input[per_page]=200`);
    await inParallel(urls.length, concurrency, (i) => get(urls[i] as string));
    const ms = performance.now() - started;
    await agent.close();
    return { requests: urls.length + 3, ms, kept: kept.length };
  }

  async function liveRead(): Promise<{
    requests: number;
    ms: number;
    peakRss: number;
    peakHeap: number;
    pending: number;
  }> {
    const client = createDashboardClient(settings);
    let peakRss = 0;
    let peakHeap = 0;
    const sample = () => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    };
    const timer = setInterval(sample, 20);
    const { ms, value: live } = await timed(() => client.readLive());
    clearInterval(timer);
    sample();
    const { requests } = client.stats();
    await client.close();
    return { requests, ms, peakRss, peakHeap, pending: live.pending.length };
  }

  // One unmeasured warm-up of each (JIT, connection setup), then rounds in alternating order.
  const runs = await alternate(rounds, bareLoop, liveRead);
  stop();
  const bare = runs.a.map((b) => b.ms);
  const client = runs.b.map((c) => c.ms);
  const minimum = runs.a.at(-1)?.requests ?? 0;
  const issued = runs.b.at(-1)?.requests ?? 0;
  const pending = runs.b.at(-1)?.pending ?? 0;
  const peakRss = Math.max(...runs.b.map((c) => c.peakRss));
  const peakHeap = Math.max(...runs.b.map((c) => c.peakHeap));
  const pairedRatio = median(client.map((c, i) => c / (bare[i] as number)));
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MiB`;
  console.log(
    `fleet: ${sites} sites, ${pending} pending updates read; concurrency ${concurrency}; best of ${rounds}`,
  );
  console.log(`requests issued / minimum: ${issued} / ${minimum} = ${(issued / minimum).toFixed(2)}`);
  console.log(
    `live read / bare fetch loop: ${ratioText(best(client), best(bare))} best of each; median of paired rounds ${pairedRatio.toFixed(2)} (target <= 1.2)`,
  );
  console.log(`peak memory during live read: rss ${mib(peakRss)}, heap ${mib(peakHeap)}`);
}
