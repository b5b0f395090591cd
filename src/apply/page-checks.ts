import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import type { HealthPath, HealthRules } from '../types.js';

/**
 * Page checks: the deeper half of a wave's health check. After check-site passes, each listed
 * page of each updated site is fetched (GET, no credentials, redirects not followed) and judged
 * by its status and body markers. Bounds: at most POOL fetches at once, each within the
 * per-request timeout, all within the budget; a page not fetched in time fails. A failure names
 * the path, what was expected and what was seen; never the query (it may carry a token) nor the
 * body beyond the marker.
 */
export const POOL = 4;
export const DEFAULT_PATH_TIMEOUT_MS = 10_000;
export const DEFAULT_PATH_BUDGET_MS = 120_000;
/** Bodies are read up to this many bytes; markers beyond it are not seen. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;
export const CACHE_BUST_PARAM = 'svc_gitops_check';

export interface PageSite {
  id: number;
  /** The site's URL as the dashboard lists it. */
  url: string;
}

/** Site id → the first failing page's problem (sites whose pages all pass are absent). */
export async function checkPages(
  sites: readonly PageSite[],
  rules: Pick<HealthRules, 'paths' | 'pathTimeoutMs' | 'pathBudgetMs'>,
  signal?: AbortSignal,
): Promise<Map<number, string>> {
  const pages = rules.paths ?? [];
  const problems = new Map<number, string>();
  if (pages.length === 0 || sites.length === 0) return problems;
  const budgetMs = rules.pathBudgetMs ?? DEFAULT_PATH_BUDGET_MS;
  const budget = AbortSignal.timeout(budgetMs);
  const limits: Limits = {
    timeoutMs: rules.pathTimeoutMs ?? DEFAULT_PATH_TIMEOUT_MS,
    budgetMs,
    budget,
    overall: signal ? AbortSignal.any([signal, budget]) : budget,
  };
  const tasks = sites.flatMap((site) => pages.map((page, order) => ({ site, page, order })));
  const found = new Map<number, { order: number; problem: string }>();
  const agent = new Agent({ connections: POOL, pipelining: 0 });
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const task = tasks[next++]!;
      const problem = limits.overall.aborted
        ? budgetProblem(task.page, budgetMs)
        : await checkPage(agent, task.site, task.page, limits);
      const earlier = found.get(task.site.id);
      if (problem !== undefined && (earlier === undefined || earlier.order > task.order))
        found.set(task.site.id, { order: task.order, problem });
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(POOL, tasks.length) }, worker));
  } finally {
    await agent.close().catch(() => undefined);
  }
  signal?.throwIfAborted();
  for (const site of sites) {
    const entry = found.get(site.id);
    if (entry) problems.set(site.id, entry.problem);
  }
  return problems;
}

interface Limits {
  timeoutMs: number;
  budgetMs: number;
  /** Aborts when the budget is spent. */
  budget: AbortSignal;
  /** Aborts when the budget is spent or the caller aborts. */
  overall: AbortSignal;
}

async function checkPage(
  agent: Agent,
  site: PageSite,
  page: HealthPath,
  { timeoutMs, budgetMs, budget, overall }: Limits,
): Promise<string | undefined> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const url = pageUrl(site.url, page);
  if (url === undefined) return `page ${page.path}: the site's URL is not an http(s) URL`;
  try {
    const response = await request(url, {
      method: 'GET',
      dispatcher: agent,
      signal: AbortSignal.any([overall, timeout]),
      headers: { 'user-agent': 'svc-gitops health check', 'cache-control': 'no-cache' },
    });
    const body = await readCapped(response.body);
    return judge(page, response.statusCode, body);
  } catch (error) {
    if (budget.aborted) return budgetProblem(page, budgetMs);
    if (timeout.aborted) return `page ${page.path}: no answer within ${seconds(timeoutMs)}`;
    if (overall.aborted) throw error;
    return `page ${page.path}: request failed (${errorCode(error)})`;
  }
}

/** The page's problem, or undefined when its status is accepted and its markers hold. */
export function judge(page: HealthPath, status: number, body: string): string | undefined {
  if (!statusMatches(status, page.status))
    return `page ${page.path}: expected HTTP ${page.status.join(', ')}, got ${status}`;
  if (page.notContains !== undefined && body.includes(page.notContains))
    return `page ${page.path}: body contains "${page.notContains}"`;
  if (page.contains !== undefined && !body.includes(page.contains))
    return `page ${page.path}: body lacks "${page.contains}"`;
  return undefined;
}

/** `200`, `2xx`, `200-399`. */
export function statusMatches(status: number, accepted: readonly string[]): boolean {
  const text = String(status);
  return accepted.some((entry) => {
    if (entry.endsWith('xx')) return text.length === 3 && text[0] === entry[0];
    const range = /^(\d{3})-(\d{3})$/.exec(entry);
    if (range) return status >= Number(range[1]) && status <= Number(range[2]);
    return entry === text;
  });
}

function pageUrl(siteUrl: string, page: HealthPath): string | undefined {
  let url: URL;
  try {
    url = new URL(page.path.replace(/^\/+/, ''), siteUrl.endsWith('/') ? siteUrl : `${siteUrl}/`);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (page.cacheBust) url.searchParams.set(CACHE_BUST_PARAM, randomUUID());
  return url.toString();
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_BODY_BYTES) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8');
}

function budgetProblem(page: HealthPath, budgetMs: number): string {
  return `page ${page.path}: not checked within the page check budget of ${seconds(budgetMs)}`;
}

/** An error's code or name: never its message, which may quote the URL. */
function errorCode(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.name : 'error';
}

function seconds(ms: number): string {
  return `${ms / 1000} s`;
}
