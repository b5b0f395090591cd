/**
 * Tool-server benchmark on a generated fleet (10,000 sites by default; the sandbox in a child
 * process). Prints, measured side by side in one run:
 *  - every list_updates_v1 page (per_page 200) through the tool server ÷ the same calls through
 *    the library (`DashboardClient.runAbilityJson` on a client built as the server builds its
 *    own, toolServerClient), both at the same concurrency, wall time (best and median round) and
 *    CPU time. Like with like: both deliver the same bytes to their caller, the answer's JSON
 *    text (checked byte for byte on every page before timing). Once with the server in-process
 *    over the SDK's in-memory transport (target ≤ 1.15), rotated with a minimal SDK server (one
 *    setRequestHandler calling the library, nothing else) for reference: what the SDK's client,
 *    protocol and transport cost on their own; once with `svc-gitops mcp` as a child process over
 *    stdio (what a client pays: the protocol's JSON both ways, a pipe, a second process). The
 *    in-memory pair is measured again with 20 ms added to every dashboard request.
 *  - the RSS and peak RSS (VmHWM) of the `svc-gitops mcp` process after 100 and after `--calls`
 *    tool calls (svc_plan of the whole fleet for the first four calls, which fill the session's
 *    bounded plan store, and then every 100th; the rest list_updates_v1 pages), and the growth per
 *    call between the two; the same mix against the in-process server, with its heap in use after
 *    a full GC (retained objects, which RSS cannot tell from heap the allocator keeps).
 * Usage: npx tsx scripts/bench/mcp.ts [--sites N] [--rounds N] [--concurrency N] [--calls N]
 *   [--json FILE] (the figures as JSON too, for the suite's short seeded run)
 */
import * as fs from 'node:fs';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { DashboardClient } from '../../src/dashboard/index.js';
import { createToolServer, toolServerClient } from '../../src/mcp/index.js';
import { generateFleet, startSandbox } from '../../src/sandbox/index.js';
import {
  alternate,
  best,
  forkSandbox,
  inParallel,
  median,
  ratioText,
  rotate,
  serveToParent,
  timed,
} from './harness.js';

const { values } = parseArgs({
  options: {
    sites: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '11' },
    concurrency: { type: 'string', default: '4' },
    calls: { type: 'string', default: '1000' },
    json: { type: 'string' },
    serve: { type: 'boolean', default: false },
  },
});
const sites = Number(values.sites);
const rounds = Number(values.rounds);
const concurrency = Number(values.concurrency);
const calls = Number(values.calls);
const PER_PAGE = 200;
const LATENCY_MS = 20;
/** The first RSS sample: after this many calls, the server has served every kind of call. */
const EARLY_CALLS = 100;
/** Plans a session keeps (src/mcp/gitops/plan-store.ts): the first calls plan one more time than this. */
const PLANS_KEPT = 3;
/** USER_HZ: the unit of /proc/<pid>/stat times, 100 on every Linux this runs on. */
const CLOCK_TICKS = 100;
const REPO = fileURLToPath(new URL('../../', import.meta.url));

interface Ratios {
  best: number;
  median: number;
  cpu: number;
}

/** The figures of one run (also written as JSON with --json). */
export interface McpBenchFigures {
  sites: number;
  pages: number;
  /** Average bytes of one page's answer, the same through both paths. */
  answerBytesPerPage: number;
  /**
   * Wall time (best and median round) and CPU time (all rounds) through the server ÷ through the
   * library; `minimalSdk`: through a minimal SDK server over the library ÷ the library.
   */
  ratios: Record<'inMemory' | 'minimalSdk' | 'inMemoryLatency' | 'stdio', Ratios>;
  /** CPU time per page through the library, in-process (µs). */
  libraryCpuUsPerPage: number;
  rss: { calls: number; rssMb: number; peakMb: number }[];
  /** The in-process server's heap in use after a full GC. */
  heap: { calls: number; heapMb: number }[];
}

if (values.serve) {
  serveToParent(
    await startSandbox({ fleet: generateFleet({ sites, pendingPerSite: 6, ignoredPerSite: 1, seed: 42 }) }),
  );
} else {
  const figures = await measure();
  if (values.json) writeFileSync(values.json, JSON.stringify(figures, null, 2));
}

async function measure(): Promise<McpBenchFigures> {
  const { served: sandbox, stop } = await forkSandbox(fileURLToPath(import.meta.url), [
    '--serve',
    '--sites',
    String(sites),
  ]);
  const cwd = mkdtempSync(join(tmpdir(), 'svc-gitops-bench-mcp-'));
  writeFileSync(
    join(cwd, 'svc-gitops.yaml'),
    'version: 1\nupdates:\n  - name: routine\n    sites: [all]\n    kinds: [plugins, themes, translations]\n    max: minor\n',
  );
  const env: Record<string, string> = {
    ...sandbox.env,
    HOME: cwd,
    PATH: process.env.PATH ?? '',
    SVC_RATE_LIMIT: '0',
    SVC_REQUEST_TIMEOUT: '60000',
    SVC_MAX_RESPONSE_SIZE: String(50 * 1024 * 1024),
    SVC_MAX_SESSION_DATA: String(2 ** 40),
    SVC_RETRY_MAX_RETRIES: '1',
    SVC_CONCURRENCY: String(concurrency),
  };
  // In-process: the server's own work (no serialisation between client and server).
  const tool = createToolServer({ env, cwd, fs, homeDir: cwd, log: () => {} });
  // The library as the server's own client: the settings it loaded, the secrets it masks.
  const library = toolServerClient(tool.settings(), { product: 'svc', log: () => {} });
  const first = (await library.runAbility('list-updates-v1', { per_page: PER_PAGE })) as { total: number };
  const pages = Math.max(1, Math.ceil(first.total / PER_PAGE));
  console.log(
    `tool server benchmark: ${sites} sites, ${first.total} pending updates, ${pages} pages of ${PER_PAGE}, concurrency ${concurrency}`,
  );
  const pageArgs = (index: number) => ({ per_page: PER_PAGE, page: index + 1 });

  const viaLibrary = () =>
    measured(() =>
      inParallel(pages, concurrency, (index) => library.runAbilityJson('list-updates-v1', pageArgs(index))),
    );
  const viaClient = (client: Client, serverPid?: number) => () =>
    measured(
      () =>
        inParallel(pages, concurrency, async (index) => {
          const result = await client.callTool({ name: 'list_updates_v1', arguments: pageArgs(index) });
          if (result.isError) throw new Error(`list_updates_v1 failed: ${answerText(result)}`);
        }),
      serverPid,
    );

  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const inMemory = new Client({ name: 'bench', version: '1' });
  await tool.server.connect(serverSide);
  await inMemory.connect(clientSide);
  const answerBytes = await sameAnswers(inMemory, library, pages, pageArgs);
  console.log(
    `like with like: on every page both paths deliver the same bytes to their caller, the answer's JSON text (${Math.round(answerBytes / pages)} bytes per page on average, compared byte for byte); the library as runAbilityJson returns it, the server as the result's text content`,
  );
  const minimal = await minimalSdkServer(library);
  const rotated = await rotate(rounds, [viaClient(inMemory), viaClient(minimal.client), viaLibrary]);
  const [served, reference, direct] = [rotated[0] ?? [], rotated[1] ?? [], rotated[2] ?? []];
  const libraryCpuUsPerPage = (1000 * total(direct, 'cpuMs')) / (direct.length * pages);
  console.log(
    `the library alone: ${libraryCpuUsPerPage.toFixed(0)} µs CPU per page; per page over it, CPU: the tool server ${perPage(served, direct, pages)}, the minimal SDK server ${perPage(reference, direct, pages)}`,
  );
  const ratios = {
    inMemory: report('in-memory transport', served, direct),
    minimalSdk: report('a minimal SDK server (reference, not a target)', reference, direct, false),
    inMemoryLatency: { best: 0, median: 0, cpu: 0 },
    stdio: { best: 0, median: 0, cpu: 0 },
  };
  await minimal.close();
  // The same with LATENCY_MS per request: a dashboard nearby instead of a loopback sandbox's cache.
  await setLatency(sandbox.url, LATENCY_MS);
  const slow = await alternate(Math.min(rounds, 3), viaClient(inMemory), viaLibrary);
  ratios.inMemoryLatency = report(
    `in-memory transport, ${LATENCY_MS} ms per dashboard request`,
    slow.a,
    slow.b,
  );
  await setLatency(sandbox.url, 0);

  // Retained memory of the in-process server: the heap in use after a full collection, after
  // EARLY_CALLS and after `calls` calls of the same mix as below (RSS alone cannot tell retained
  // objects from heap the allocator keeps).
  const heap: McpBenchFigures['heap'] = [];
  await callMix(inMemory, calls, pageArgs, pages, (done) =>
    heap.push({ calls: done, heapMb: retainedHeapBytes() / 1048576 }),
  );
  console.log(
    `in-process tool server, heap in use after a full GC: ${heap.map((h) => `after ${h.calls} calls ${h.heapMb.toFixed(1)} MB`).join(', ')}${perCall(heap.map((h) => ({ calls: h.calls, mb: h.heapMb })))}`,
  );
  await inMemory.close();
  await tool.close();

  // A child process over stdio, as an AI client runs it.
  // The built bundle when there is one (`npm run bench:mcp` builds first): what users run, and
  // what its RSS should be measured on; else the sources through this process's loader.
  const bundle = join(REPO, 'dist/bin/svc-gitops.js');
  const server = existsSync(bundle) ? [bundle] : [...process.execArgv, join(REPO, 'src/cli/main.ts')];
  console.log(
    `svc-gitops mcp over stdio runs ${existsSync(bundle) ? 'the built bundle' : 'the sources (no build)'}`,
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...server, 'mcp'],
    cwd,
    env,
    stderr: 'ignore',
  });
  const stdio = new Client({ name: 'bench', version: '1' });
  await stdio.connect(transport);
  const piped = await alternate(rounds, viaClient(stdio, transport.pid ?? undefined), viaLibrary);
  ratios.stdio = report('stdio (child process)', piped.a, piped.b);

  // RSS of the server process after EARLY_CALLS and after `calls` tool calls.
  const rss: McpBenchFigures['rss'] = [];
  const sample = (done: number) => {
    const pid = transport.pid;
    const status = pid === null ? '' : readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) =>
      Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
    rss.push({ calls: done, rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 });
  };
  const started = performance.now();
  await callMix(stdio, calls, pageArgs, pages, sample);
  const seconds = (performance.now() - started) / 1000;
  const line = (s: McpBenchFigures['rss'][number]) =>
    `after ${s.calls} calls RSS ${s.rssMb.toFixed(0)} MB, peak ${s.peakMb.toFixed(0)} MB`;
  console.log(
    `svc-gitops mcp, ${calls} tool calls (svc_plan of ${sites} sites for the first ${PLANS_KEPT + 1} calls and every 100th, the rest list_updates_v1 pages) in ${seconds.toFixed(1)} s: ${rss.map(line).join('; ')}${perCall(rss.map((s) => ({ calls: s.calls, mb: s.rssMb })))} RSS`,
  );
  await stdio.close();
  await library.close();
  rmSync(cwd, { recursive: true, force: true });
  stop();
  return {
    sites,
    pages,
    answerBytesPerPage: Math.round(answerBytes / pages),
    ratios,
    libraryCpuUsPerPage,
    rss,
    heap,
  };
}

/**
 * The reference: the least an MCP server on the SDK can do to serve a page, one standard
 * `setRequestHandler(CallToolRequestSchema)` that calls the library and returns its text, over
 * its own in-memory pair. What it costs over the library is the SDK's client, protocol and
 * transport (with their zod checks), which the tool server pays too.
 */
async function minimalSdkServer(
  library: DashboardClient,
): Promise<{ client: Client; close(): Promise<void> }> {
  const server = new Server({ name: 'minimal', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { json } = await library.runAbilityJson('list-updates-v1', request.params.arguments ?? {});
    return { content: [{ type: 'text', text: json }] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bench', version: '1' });
  await server.connect(serverSide);
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

function total(runs: Measured[], field: keyof Measured): number {
  return runs.reduce((sum, run) => sum + run[field], 0);
}

/** `+N µs (+P %)`: CPU per page of `runs` over `base`'s. */
function perPage(runs: Measured[], base: Measured[], pages: number): string {
  const us = (1000 * (total(runs, 'cpuMs') / runs.length - total(base, 'cpuMs') / base.length)) / pages;
  const percent = (100 * total(runs, 'cpuMs')) / total(base, 'cpuMs') - 100;
  const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(0)}`;
  return `${signed(us)} µs (${signed(percent)} %)`;
}

/**
 * `calls` tool calls: svc_plan of the whole fleet for the first PLANS_KEPT + 1 calls (the
 * session's bounded plan store is full, and has evicted once, before the first sample) and every
 * 100th, list_updates_v1 pages otherwise; `sample(done)` after EARLY_CALLS and after the last.
 */
async function callMix(
  client: Client,
  calls: number,
  pageArgs: (index: number) => Record<string, unknown>,
  pages: number,
  sample: (done: number) => void,
): Promise<void> {
  for (let call = 0; call < calls; call++) {
    if (call <= PLANS_KEPT || call % 100 === 0) {
      const planned = await client.callTool({ name: 'svc_plan', arguments: {} });
      if (planned.isError) throw new Error(`svc_plan failed: ${answerText(planned)}`);
    } else {
      const page = await client.callTool({ name: 'list_updates_v1', arguments: pageArgs(call % pages) });
      if (page.isError) throw new Error(`list_updates_v1 failed: ${answerText(page)}`);
    }
    if (call + 1 === EARLY_CALLS || call + 1 === calls) sample(call + 1);
  }
}

/** `; growth per call from call A to B: N KB` between the first and last sample, or ''. */
function perCall(samples: { calls: number; mb: number }[]): string {
  const early = samples[0];
  const late = samples[samples.length - 1];
  if (!early || !late || late === early) return '';
  const kb = ((late.mb - early.mb) * 1024) / (late.calls - early.calls);
  return `; growth per call from call ${early.calls} to ${late.calls}: ${kb.toFixed(1)} KB`;
}

/** This process's heap in use after a full collection (gc exposed at run time for the purpose). */
function retainedHeapBytes(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * Fetches every page both ways and checks the server delivers exactly the bytes the library
 * does; returns their total. Throws on any difference (the ratios would not compare like with like).
 */
async function sameAnswers(
  client: Client,
  library: DashboardClient,
  pages: number,
  pageArgs: (index: number) => Record<string, unknown>,
): Promise<number> {
  let bytes = 0;
  await inParallel(pages, concurrency, async (index) => {
    const [direct, served] = await Promise.all([
      library.runAbilityJson('list-updates-v1', pageArgs(index)),
      client.callTool({ name: 'list_updates_v1', arguments: pageArgs(index) }),
    ]);
    const text = answerText(served);
    if (text !== direct.json) {
      throw new Error(`page ${index + 1}: the server's answer differs from the library's`);
    }
    bytes += Buffer.byteLength(text);
  });
  return bytes;
}

function answerText(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '').join('');
}

async function setLatency(url: string, delayMs: number): Promise<void> {
  const rules = delayMs > 0 ? [{ kind: 'latency', delayMs }] : [];
  const response = await fetch(`${url}/__sandbox/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rules }),
  });
  if (!response.ok) throw new Error(`sandbox faults: ${response.status}`);
}

interface Measured {
  ms: number;
  /** CPU time of this process, plus the server's when it is another process. */
  cpuMs: number;
}

/** Wall and CPU time of one round; `pid`: a child process whose CPU time counts too. */
async function measured(run: () => Promise<unknown>, pid?: number): Promise<Measured> {
  const cpuBefore = process.cpuUsage();
  const childBefore = childCpuMs(pid);
  const { ms } = await timed(run);
  const cpu = process.cpuUsage(cpuBefore);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000 + childCpuMs(pid) - childBefore };
}

/** User + system CPU time of process `pid` (Linux /proc; 0 elsewhere or without a pid). */
function childCpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0; // no /proc
  }
}

/**
 * Prints the wall-time ratios (best and median round) and the CPU-time ratio (all rounds; on a
 * machine shared with other work, CPU time is the steadier measure of work done).
 */
function report(label: string, server: Measured[], lib: Measured[], target = true): Ratios {
  const wall = (runs: Measured[]) => runs.map((r) => r.ms);
  const cpu = (runs: Measured[]) => total(runs, 'cpuMs');
  console.log(
    `list_updates_v1, every page, through the server ÷ through the library, ${label}: wall best ${ratioText(best(wall(server)), best(wall(lib)))}, median ${ratioText(median(wall(server)), median(wall(lib)))}; CPU ${ratioText(cpu(server), cpu(lib))}${target ? ' (target ≤ 1.15)' : ''}`,
  );
  return {
    best: best(wall(server)) / best(wall(lib)),
    median: median(wall(server)) / median(wall(lib)),
    cpu: cpu(server) / cpu(lib),
  };
}
