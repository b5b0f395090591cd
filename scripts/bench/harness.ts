/**
 * Pieces every benchmark script shares: a sandbox served from a child process (so its CPU is
 * not charged to the client being measured), client settings without throttles, a bounded
 * concurrency loop, and side-by-side timing with the ratio printed from one run.
 */
import { fork } from 'node:child_process';
import type * as nodeFs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { memfs } from 'memfs';
import { loadDesiredState } from '../../src/config/index.js';
import type { RunningSandbox, SandboxCredentials } from '../../src/sandbox/index.js';
import type { Settings } from '../../src/settings/index.js';
import type { DesiredState } from '../../src/types.js';

/** What a served sandbox tells the parent: where it listens and how to log in. */
export interface ServedSandbox {
  url: string;
  env: Record<string, string>;
  credentials: SandboxCredentials;
}

/**
 * Child side: reports the sandbox (plus `extra`) to the parent, then serves until the parent
 * says stop or goes away.
 */
export function serveToParent(sandbox: RunningSandbox, extra: Record<string, unknown> = {}): void {
  const served: ServedSandbox = { url: sandbox.url, env: sandbox.env(), credentials: sandbox.credentials };
  process.send?.({ ...served, ...extra });
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.once('message', stop);
  process.once('disconnect', stop);
}

/**
 * Parent side: forks `script` with `args` (the script calls serveToParent when it sees them)
 * and waits for the sandbox it serves. `stop()` ends the child.
 */
export async function forkSandbox<T extends ServedSandbox = ServedSandbox>(
  script: string,
  args: string[],
): Promise<{ served: T; stop(): void }> {
  const child = fork(script, args, { execArgv: process.execArgv });
  const served = await new Promise<T>((resolve, reject) => {
    child.once('message', (message) => resolve(message as T));
    child.once('exit', (code) => reject(new Error(`the sandbox process exited with ${code}`)));
  });
  child.removeAllListeners('exit');
  return { served, stop: () => void child.send('stop') };
}

/**
 * Client settings for a benchmark: the sandbox's login, and no rate limit, retry waits or
 * small budgets, so the client is measured rather than its throttles.
 */
export function benchSettings(
  served: Pick<ServedSandbox, 'url' | 'env'>,
  overrides: Partial<Settings> = {},
): Settings {
  return {
    dashboardUrl: served.url,
    username: served.env.SVC_USER ?? '',
    applicationPassword: served.env.SVC_APP_PASSWORD ?? '',
    allowHttp: true,
    skipSslVerify: false,
    safeMode: true,
    requireUserConfirmation: true,
    strict: false,
    failOnVulnerable: false,
    rateLimit: 0,
    requestTimeout: 60_000,
    maxResponseSize: 50 * 1024 * 1024,
    maxSessionData: 4 * 1024 * 1024 * 1024,
    maxRetries: 1,
    retryBaseDelay: 0,
    retryMaxDelay: 0,
    concurrency: 4,
    allowedTools: '',
    blockedTools: '',
    namespace: served.env.SVC_NAMESPACE ?? 'svc',
    planLifetimeMinutes: 60,
    jobPollInterval: 0,
    jobTimeout: 60_000,
    compatibility: 'svc',
    schemaVerbosity: 'standard',
    responseFormat: 'compact',
    retryEnabled: true,
    ...overrides,
  };
}

/** The `authorization` header for the sandbox's admin application password. */
export function basicAuth(credentials: Pick<SandboxCredentials, 'username' | 'applicationPassword'>): string {
  return `Basic ${Buffer.from(`${credentials.username}:${credentials.applicationPassword}`).toString('base64')}`;
}

/** A desired state parsed from YAML text through the real loader (in memory); throws if invalid. */
export async function desiredFromText(text: string): Promise<DesiredState> {
  const { fs } = memfs({ '/bench/svc-gitops.yaml': text });
  const loaded = await loadDesiredState({
    path: 'svc-gitops.yaml',
    fs: fs as unknown as typeof nodeFs,
    cwd: '/bench',
  });
  if (!loaded.desired) throw new Error(`bench config invalid: ${JSON.stringify(loaded.diagnostics)}`);
  return loaded.desired;
}

/** Runs `task(0 … count-1)`, started in index order, with at most `concurrency` in flight. */
export async function inParallel(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

/** Wall time of one run of `run`, with its result. */
export async function timed<T>(run: () => T | Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await run();
  return { ms: performance.now() - started, value };
}

/**
 * `rounds` runs of `a` and of `b`, after `warmup` unmeasured runs of each (JIT, connections).
 * The order alternates every round (`a` first in even rounds) so drift and GC hit both alike.
 */
export async function alternate<A, B>(
  rounds: number,
  a: () => Promise<A>,
  b: () => Promise<B>,
  warmup = 1,
): Promise<{ a: A[]; b: B[] }> {
  for (let i = 0; i < warmup; i++) {
    await a();
    await b();
  }
  const results = { a: [] as A[], b: [] as B[] };
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      results.a.push(await a());
      results.b.push(await b());
    } else {
      results.b.push(await b());
      results.a.push(await a());
    }
  }
  return results;
}

/**
 * `rounds` runs of each of `runs`, after `warmup` unmeasured runs of each. Each round starts one
 * further along the list (alternate's rule for more than two), so drift and GC hit all alike.
 * Returns the measurements of each run in the order of `runs`.
 */
export async function rotate<T>(
  rounds: number,
  runs: ReadonlyArray<() => Promise<T>>,
  warmup = 1,
): Promise<T[][]> {
  for (let i = 0; i < warmup; i++) for (const run of runs) await run();
  const results = runs.map(() => [] as T[]);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < runs.length; k++) {
      const index = (round + k) % runs.length;
      (results[index] as T[]).push(await (runs[index] as () => Promise<T>)());
    }
  }
  return results;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

export function best(values: readonly number[]): number {
  return Math.min(...values);
}

/** `12 ms / 10 ms = 1.20`: two timings and their ratio, as the benchmarks print them. */
export function ratioText(ms: number, baseMs: number): string {
  return `${ms.toFixed(0)} ms / ${baseMs.toFixed(0)} ms = ${(ms / baseMs).toFixed(2)}`;
}

/**
 * The unpaged ignored listing of compat-6.1 read for `ids` in the fewest pieces whose request
 * line (`GET <path> HTTP/1.1\r\n`) fits `lineLimit`, as nginx's default counts it: the paths (with
 * query) a minimal client asks for, computed from the fleet and the limit, not by the client.
 */
export function ignoredPiecePaths(base: string, ids: readonly number[], lineLimit = 8192): string[] {
  const paths: string[] = [];
  let query = '';
  for (const id of ids) {
    const parameter = `input[site_ids_or_domains][]=${id}`;
    const next = query === '' ? parameter : `${query}&${parameter}`;
    if (`GET ${base}${next} HTTP/1.1\r\n`.length > lineLimit) {
      paths.push(base + query);
      query = parameter;
    } else {
      query = next;
    }
  }
  if (query !== '') paths.push(base + query);
  return paths;
}

/**
 * The apply benchmarks' desired state on the reference fleet: one plugin ignored everywhere and
 * every minor plugin, theme and translation update.
 */
export const REFERENCE_CONFIG = `version: 1
ignores:
  rules:
    - sites: [all]
      plugins: [jetpack/jetpack.php]
updates:
  - name: routine
    sites: [all]
    kinds: [plugins, themes, translations]
    max: minor
`;

/**
 * Pending updates per site, counted from the whole list-updates-v1 listing (`fetchPage` reads
 * one page of `perPage`), pages read `parallel` at a time.
 */
export async function updatesPerSite(
  fetchPage: (page: number) => Promise<{ updates: Array<{ site_id: number }>; total: number }>,
  perPage = 200,
  parallel = 8,
): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  const add = (page: { updates: Array<{ site_id: number }> }) => {
    for (const u of page.updates) counts.set(u.site_id, (counts.get(u.site_id) ?? 0) + 1);
  };
  const first = await fetchPage(1);
  add(first);
  const pages = Math.ceil(first.total / perPage);
  for (let start = 2; start <= pages; start += parallel) {
    const batch = [];
    for (let page = start; page < start + parallel && page <= pages; page++) batch.push(fetchPage(page));
    for (const page of await Promise.all(batch)) add(page);
  }
  return counts;
}

/**
 * Paths of the fewest requests that read every site's updates in site chunks, counted from the
 * fleet's updates per site and the limits alone: sites in listing order packed into chunks whose
 * updates fit one page of `perPage` and whose request line (page and per_page included, CRLF
 * counted as nginx does) fits `lineLimit`; a site with more than a page of updates alone, with
 * all its pages. (Packing in listing order is what any reader that does not know each site's
 * count beforehand can aim for; next-fit in a fixed order is optimal for that order.)
 */
export function updateChunkPaths(
  base: string,
  ids: readonly number[],
  counts: ReadonlyMap<number, number>,
  perPage = 200,
  lineLimit = 8192,
): string[] {
  const paths: string[] = [];
  let query = '';
  let sum = 0;
  const paging = (page: number) => `&input[page]=${page}&input[per_page]=${perPage}`;
  const flush = () => {
    if (query === '') return;
    for (let page = 1; page <= Math.max(1, Math.ceil(sum / perPage)); page++)
      paths.push(`${base}${query}${paging(page)}`);
  };
  for (const id of ids) {
    const count = counts.get(id) ?? 0;
    const parameter = `input[site_ids_or_domains][]=${id}`;
    const next = query === '' ? parameter : `${query}&${parameter}`;
    const lastPage = Math.max(1, Math.ceil((sum + count) / perPage));
    const tooLong = `GET ${base}${next}${paging(lastPage)} HTTP/1.1\r\n`.length > lineLimit;
    if (query !== '' && (sum + count > perPage || tooLong)) {
      flush();
      query = parameter;
      sum = count;
    } else {
      query = next;
      sum += count;
    }
  }
  flush();
  return paths;
}
