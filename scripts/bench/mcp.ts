/**
 * Tool-server benchmark on a generated 10,000-site fleet (sandbox in a child process). Prints,
 * measured side by side in one run:
 *  - every list_updates_v1 page (per_page 200) through the tool server ÷ the same calls through
 *    the library (`DashboardClient.runAbility`), both at the same concurrency; once with the
 *    server in-process over the SDK's in-memory transport (the server's own work), once with
 *    `svc-gitops mcp` as a child process over stdio (what a client pays: JSON both ways). Target
 *    ≤ 1.15. The in-memory pair is measured again with 20 ms added to every dashboard request.
 *  - the peak RSS (VmHWM) of the `svc-gitops mcp` process after 1,000 tool calls (990 pages of
 *    list_updates_v1, 10 svc_plan of the whole fleet).
 * Usage: npx tsx scripts/bench/mcp.ts [--sites N] [--rounds N] [--concurrency N] [--calls N]
 */
import * as fs from 'node:fs';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createDashboardClient } from '../../src/dashboard/index.js';
import { createToolServer } from '../../src/mcp/index.js';
import { generateFleet, startSandbox } from '../../src/sandbox/index.js';
import {
  alternate,
  benchSettings,
  best,
  forkSandbox,
  inParallel,
  median,
  ratioText,
  serveToParent,
  timed,
} from './harness.js';

const { values } = parseArgs({
  options: {
    sites: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '4' },
    calls: { type: 'string', default: '1000' },
    serve: { type: 'boolean', default: false },
  },
});
const sites = Number(values.sites);
const rounds = Number(values.rounds);
const concurrency = Number(values.concurrency);
const calls = Number(values.calls);
const PER_PAGE = 200;
const LATENCY_MS = 20;
const REPO = fileURLToPath(new URL('../../', import.meta.url));

if (values.serve) {
  serveToParent(
    await startSandbox({ fleet: generateFleet({ sites, pendingPerSite: 6, ignoredPerSite: 1, seed: 42 }) }),
  );
} else {
  await measure();
}

async function measure(): Promise<void> {
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
  const library = createDashboardClient(benchSettings(sandbox, { concurrency }));
  const first = (await library.runAbility('list-updates-v1', { per_page: PER_PAGE })) as { total: number };
  const pages = Math.ceil(first.total / PER_PAGE);
  console.log(
    `tool server benchmark: ${sites} sites, ${first.total} pending updates, ${pages} pages of ${PER_PAGE}`,
  );

  const viaLibrary = () =>
    timed(() =>
      inParallel(pages, concurrency, (index) =>
        library.runAbility('list-updates-v1', { per_page: PER_PAGE, page: index + 1 }),
      ),
    );
  const viaClient = (client: Client) => () =>
    timed(() =>
      inParallel(pages, concurrency, (index) =>
        client.callTool({ name: 'list_updates_v1', arguments: { per_page: PER_PAGE, page: index + 1 } }),
      ),
    );

  // In-process: the server's own work (no serialisation between client and server).
  const tool = createToolServer({ env, cwd, fs, homeDir: cwd, log: () => {} });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const inMemory = new Client({ name: 'bench', version: '1' });
  await tool.server.connect(serverSide);
  await inMemory.connect(clientSide);
  const memory = await alternate(rounds, viaClient(inMemory), viaLibrary);
  report(
    'in-memory transport',
    memory.a.map((r) => r.ms),
    memory.b.map((r) => r.ms),
  );
  // The same with LATENCY_MS per request: a dashboard nearby instead of a loopback sandbox's cache.
  await setLatency(sandbox.url, LATENCY_MS);
  const slow = await alternate(Math.min(rounds, 3), viaClient(inMemory), viaLibrary);
  report(
    `in-memory transport, ${LATENCY_MS} ms per dashboard request`,
    slow.a.map((r) => r.ms),
    slow.b.map((r) => r.ms),
  );
  await setLatency(sandbox.url, 0);
  await inMemory.close();
  await tool.close();

  // A child process over stdio, as an AI client runs it.
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...process.execArgv, join(REPO, 'src/cli/main.ts'), 'mcp'],
    cwd,
    env,
    stderr: 'ignore',
  });
  const stdio = new Client({ name: 'bench', version: '1' });
  await stdio.connect(transport);
  const piped = await alternate(rounds, viaClient(stdio), viaLibrary);
  report(
    'stdio (child process)',
    piped.a.map((r) => r.ms),
    piped.b.map((r) => r.ms),
  );

  // Peak RSS of the server process after `calls` tool calls.
  const plans = Math.max(1, Math.round(calls / 100));
  const started = performance.now();
  for (let call = 0; call < calls; call++) {
    if (call % Math.floor(calls / plans) === 0) {
      const planned = await stdio.callTool({ name: 'svc_plan', arguments: {} });
      if (planned.isError) throw new Error(`svc_plan failed: ${JSON.stringify(planned.content)}`);
    } else {
      await stdio.callTool({
        name: 'list_updates_v1',
        arguments: { per_page: PER_PAGE, page: (call % pages) + 1 },
      });
    }
  }
  const pid = transport.pid;
  const status = pid === null ? '' : readFileSync(`/proc/${pid}/status`, 'utf8');
  const peak = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  const now = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  console.log(
    `svc-gitops mcp after ${calls} tool calls (${plans} svc_plan of ${sites} sites, the rest list_updates_v1 pages) in ${((performance.now() - started) / 1000).toFixed(1)} s: peak RSS ${peak ? `${Math.round(Number(peak) / 1024)} MB` : 'n/a (no /proc)'}, RSS now ${now ? `${Math.round(Number(now) / 1024)} MB` : 'n/a'}`,
  );
  await stdio.close();
  await library.close();
  rmSync(cwd, { recursive: true, force: true });
  stop();
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

function report(label: string, server: number[], lib: number[]): void {
  console.log(
    `list_updates_v1, every page, through the server ÷ through the library, ${label}: best ${ratioText(best(server), best(lib))}, median ${ratioText(median(server), median(lib))} (target ≤ 1.15)`,
  );
}
