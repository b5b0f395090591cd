/**
 * Live-read benchmark on a generated 10,000-site fleet (sandbox, compat-6.1). Prints:
 *  - requests issued ÷ minimum requests (must be 1.00): the minimum is one catalogue page, the
 *    list-sites pages at per_page 100, the list-updates pages at per_page 200 and one ignored listing;
 *  - the live read's time ÷ a bare fetch loop over the same pages at the same concurrency
 *    (target ≤ 1.2), measured side by side, best of several rounds each;
 *  - peak memory (RSS and heap) during the live read.
 * The sandbox runs in a child process (as a real dashboard would be remote), so its own work does
 * not share the event loop with the client being measured.
 * Usage: npx tsx scripts/bench/live-read.ts [--sites N] [--rounds N] [--concurrency N]
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { createDashboardClient } from '../../src/dashboard/index.js';
import { generateFleet, startSandbox } from '../../src/sandbox/index.js';
import type { Settings } from '../../src/settings/index.js';

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
  // Child mode: serve the generated fleet until the parent closes our stdin.
  const sandbox = await startSandbox({
    fleet: generateFleet({ sites, pendingPerSite: 6, ignoredPerSite: 1, seed: 42 }),
  });
  console.log(JSON.stringify({ url: sandbox.url, env: sandbox.env() }));
  process.stdin.resume();
  process.stdin.on('end', () => void sandbox.close().then(() => process.exit(0)));
} else {
  await measure();
}

async function measure(): Promise<void> {
  const child = spawn(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--serve', '--sites', String(sites)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const firstLine = await new Promise<string>((resolve) =>
    createInterface({ input: child.stdout }).once('line', resolve),
  );
  const sandbox = JSON.parse(firstLine) as { url: string; env: Record<string, string> };
  const env = sandbox.env;
  const settings: Settings = {
    dashboardUrl: sandbox.url,
    username: env.SVC_USER ?? '',
    applicationPassword: env.SVC_APP_PASSWORD ?? '',
    allowHttp: true,
    skipSslVerify: false,
    safeMode: true,
    requireUserConfirmation: true,
    rateLimit: 0,
    requestTimeout: 60_000,
    maxResponseSize: 50 * 1024 * 1024,
    maxSessionData: 4 * 1024 * 1024 * 1024,
    maxRetries: 1,
    retryBaseDelay: 0,
    retryMaxDelay: 0,
    concurrency,
    namespace: env.SVC_NAMESPACE ?? 'svc',
    planLifetimeMinutes: 60,
    jobPollInterval: 0,
    jobTimeout: 60_000,
  };
  const auth = `Basic ${Buffer.from(`${settings.username}:${settings.applicationPassword}`).toString('base64')}`;
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
      get(run('list-ignored-updates-v1')),
    ]);
    const urls: string[] = [];
    for (let p = 2; p <= Math.ceil(firstSites.total / 100); p++)
      urls.push(`${run('list-sites-v1')}?input[page]=${p}&input[per_page]=100`);
    for (let p = 2; p <= Math.ceil(firstUpdates.total / 200); p++)
      urls.push(`${run('list-updates-v1')}?input[page]=${p}&input[per_page]=200`);
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < urls.length) await get(urls[next++] as string);
      }),
    );
    const ms = performance.now() - started;
    await agent.close();
    return { requests: urls.length + 4, ms, kept: kept.length };
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
    const started = performance.now();
    const live = await client.readLive();
    const ms = performance.now() - started;
    clearInterval(timer);
    sample();
    const { requests } = client.stats();
    await client.close();
    return { requests, ms, peakRss, peakHeap, pending: live.pending.length };
  }

  const bare: number[] = [];
  const client: number[] = [];
  let minimum = 0;
  let issued = 0;
  let peakRss = 0;
  let peakHeap = 0;
  let pending = 0;
  // One unmeasured warm-up of each (JIT, connection setup), then rounds in alternating order.
  await bareLoop();
  await liveRead();
  for (let i = 0; i < rounds; i++) {
    const clientFirst = i % 2 === 1;
    const c0 = clientFirst ? await liveRead() : undefined;
    const b = await bareLoop();
    const c = c0 ?? (await liveRead());
    bare.push(b.ms);
    client.push(c.ms);
    minimum = b.requests;
    issued = c.requests;
    peakRss = Math.max(peakRss, c.peakRss);
    peakHeap = Math.max(peakHeap, c.peakHeap);
    pending = c.pending;
  }
  child.stdin.end();
  const best = (xs: number[]) => Math.min(...xs);
  const ratios = client.map((c, i) => c / (bare[i] as number)).sort((a, b) => a - b);
  const median = ratios[Math.floor(ratios.length / 2)] as number;
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MiB`;
  console.log(
    `fleet: ${sites} sites, ${pending} pending updates read; concurrency ${concurrency}; best of ${rounds}`,
  );
  console.log(`requests issued / minimum: ${issued} / ${minimum} = ${(issued / minimum).toFixed(2)}`);
  console.log(
    `live read ${best(client).toFixed(0)} ms / bare fetch loop ${best(bare).toFixed(0)} ms = ${(best(client) / best(bare)).toFixed(2)} best of each; median of paired rounds ${median.toFixed(2)} (target <= 1.2)`,
  );
  console.log(`peak memory during live read: rss ${mib(peakRss)}, heap ${mib(peakHeap)}`);
}
