/**
 * Benchmark: the sandbox serving a paged list-updates-v1 read of a generated 10,000-site fleet
 * (6 pending updates per site on average) at per_page 200. Prints requests per second and the
 * ratio of serving time to the time a client needs just to JSON.parse the same pages, measured
 * side by side in one run. Run: npx tsx scripts/bench/sandbox.ts [sites]
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { generateFleet, startSandbox } from '../../src/sandbox/index.js';
import { basicAuth, forkSandbox, inParallel, serveToParent, timed } from './harness.js';

const sites = Number(process.argv[2] ?? 10_000);
const perPage = 200;

/**
 * The sandbox runs in a child process (as it does for a real plan run), so its own time is not
 * mixed with the client's; it reports its handler time through /__sandbox/stats.
 */
if (process.argv.includes('--serve')) {
  const fleet = generateFleet({ sites, pendingPerSite: 6, ignoredPerSite: 1, seed: 2026 });
  serveToParent(await startSandbox({ fleet }));
} else {
  await benchmark();
}

async function benchmark(): Promise<void> {
  const { ms: generated, value: child } = await timed(() =>
    forkSandbox(fileURLToPath(import.meta.url), [String(sites), '--serve']),
  );
  const sandbox = child.served;
  const agent = new Agent({ connections: 8, pipelining: 1 });
  const auth = basicAuth(sandbox.credentials);

  async function page(n: number): Promise<string> {
    const url = `${sandbox.url}/wp-json/wp-abilities/v1/abilities/svc/list-updates-v1/run?input[per_page]=${perPage}&input[page]=${n}`;
    const res = await request(url, { headers: { authorization: auth }, dispatcher: agent });
    if (res.statusCode !== 200) throw new Error(`page ${n}: HTTP ${res.statusCode}`);
    return res.body.text();
  }

  /** Reads every page; returns the bodies and the wall time (fetch + read, no parsing). */
  async function readAll(concurrency: number): Promise<{ bodies: string[]; ms: number }> {
    const first = await page(1);
    const total = (JSON.parse(first) as { total: number }).total;
    const pages = Math.ceil(total / perPage);
    const bodies: string[] = new Array(pages);
    bodies[0] = first;
    // Pages 2 … pages, stored by page index.
    const { ms } = await timed(() =>
      inParallel(pages - 1, concurrency, async (i) => {
        bodies[i + 1] = await page(i + 2);
      }),
    );
    return { bodies, ms };
  }

  const cold = await readAll(1);
  await request(`${sandbox.url}/__sandbox/stats/reset`, { method: 'POST', dispatcher: agent }).then((r) =>
    r.body.text(),
  );
  const warm = await readAll(1);
  const stats = (await (
    await request(`${sandbox.url}/__sandbox/stats`, { dispatcher: agent })
  ).body.json()) as { handler_ms: number };
  const parallel = await readAll(4);
  const parseStart = performance.now();
  let entries = 0;
  for (const body of warm.bodies) entries += (JSON.parse(body) as { updates: unknown[] }).updates.length;
  const parseMs = performance.now() - parseStart;
  // What a client minimally does with a page: parse it and map entries to domain records.
  const mapStart = performance.now();
  const mapped: Array<{ siteId: number; kind: string; slug: string; from: string; to: string }> = [];
  for (const body of warm.bodies) {
    for (const u of (JSON.parse(body) as { updates: Array<Record<string, string | number>> }).updates) {
      mapped.push({
        siteId: Number(u.site_id),
        kind: String(u.type),
        slug: decodeURIComponent(String(u.slug)),
        from: String(u.current_version),
        to: String(u.new_version),
      });
    }
  }
  const mapMs = performance.now() - mapStart;
  const bytes = warm.bodies.reduce((sum, b) => sum + b.length, 0);
  const requests = warm.bodies.length - 1;

  const fmt = (n: number): string => n.toFixed(1);
  console.log(
    `fleet: ${sites} sites generated and served by a child process in ${fmt(generated)} ms; ${entries} pending entries; ${warm.bodies.length} pages of ${perPage}`,
  );
  console.log(`cold read (builds the flattened index): ${fmt(cold.ms)} ms`);
  console.log(
    `warm read, 1 connection:  ${fmt(warm.ms)} ms, ${fmt((requests / warm.ms) * 1000)} req/s, ${fmt(bytes / 1048576)} MiB`,
  );
  console.log(
    `warm read, 4 connections: ${fmt(parallel.ms)} ms, ${fmt((requests / parallel.ms) * 1000)} req/s`,
  );
  console.log(`client JSON.parse of the same pages: ${fmt(parseMs)} ms`);
  console.log(
    `sandbox's own time for the warm read (parse request, dispatch, serialise, write): ${fmt(stats.handler_ms)} ms`,
  );
  console.log(`ratio sandbox time / client JSON.parse time: ${(stats.handler_ms / parseMs).toFixed(2)}`);
  console.log(`client JSON.parse + mapping ${mapped.length} entries to domain records: ${fmt(mapMs)} ms`);
  console.log(`ratio sandbox time / client parse+map time: ${(stats.handler_ms / mapMs).toFixed(2)}`);
  console.log(
    `ratio wall time of the warm read (client HTTP + sandbox) / JSON.parse: ${(warm.ms / parseMs).toFixed(2)}`,
  );
  await agent.close();
  child.stop();
}
