import { Agent, request } from 'undici';
import { isSvcError, SvcError } from '../errors.js';
import { SecretMask } from '../secrets/index.js';
import { githubResponseError, WORKFLOW_TOKEN_HINT } from './github-error.js';
import { linkWithRel } from './link-header.js';

/**
 * A small GitHub REST client on undici. Invariants:
 * - the token is sent only in the Authorization header, only to the configured API base (a
 *   pagination link to any other place is refused), and never appears in an error or log;
 * - every failure is an SvcError naming method, path and status (see github-error.ts);
 * - only GET is retried, once, on a 502/503/504 or a lost connection: writes are not idempotent;
 * - rate limits are reported, never waited out (a CI job should fail visibly, not hang).
 */
export interface GitHubClient {
  /** API base without a trailing slash, e.g. `https://api.github.com`. */
  readonly apiUrl: string;
  request<T>(method: HttpMethod, path: string, body?: unknown): Promise<T>;
  /** Every item of a list endpoint, page by page, following `Link: rel="next"`. */
  paginate<T>(path: string): AsyncGenerator<T[], void, undefined>;
  /**
   * The person a personal access token belongs to (`GET /user`, asked at most once per client,
   * that is per run), or undefined for an installation token (the workflow's `GITHUB_TOKEN`, a
   * GitHub App's), which GitHub answers with 403 or 404 there. Any other failure is thrown.
   */
  tokenUser(): Promise<TokenUser | undefined>;
  close(): Promise<void>;
}

export interface TokenUser {
  /** GitHub's numeric account id: unlike the login, it never changes or passes to someone else. */
  id: number;
  login: string;
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface GitHubClientOptions {
  token: string;
  /** Default https://api.github.com; GitHub Enterprise Server uses `https://HOST/api/v3`. */
  apiUrl?: string;
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** Bounds pagination so a misbehaving server cannot loop forever (100 pages × 100 items). */
  maxPages?: number;
  retryDelayMs?: number;
  signal?: AbortSignal;
  now?: () => Date;
}

export const DEFAULT_API_URL = 'https://api.github.com';
const RETRYABLE_STATUS = new Set([502, 503, 504]);

export function createGitHubClient(options: GitHubClientOptions): GitHubClient {
  const token = options.token.trim();
  if (!token || /\s/.test(token)) {
    throw new SvcError('USAGE', 'the GitHub token is empty or contains whitespace', {
      hint: `set GITHUB_TOKEN to a token; ${WORKFLOW_TOKEN_HINT}`,
    });
  }
  const apiUrl = normaliseApiUrl(options.apiUrl ?? DEFAULT_API_URL);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxResponseBytes = options.maxResponseBytes ?? 16 * 1024 * 1024;
  const maxPages = options.maxPages ?? 100;
  const retryDelayMs = options.retryDelayMs ?? 1000;
  const now = options.now ?? (() => new Date());
  const agent = new Agent({ headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connections: 4 });
  const headers = {
    authorization: `Bearer ${token}`,
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
    'user-agent': 'svc-gitops',
  };

  async function send(
    method: HttpMethod,
    url: string,
    body: unknown,
  ): Promise<{ data: unknown; link?: string }> {
    const path = url.slice(apiUrl.length);
    for (let attempt = 1; ; attempt += 1) {
      const retry = method === 'GET' && attempt === 1;
      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(url, {
          method,
          dispatcher: agent,
          headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          ...(options.signal ? { signal: options.signal } : {}),
        });
      } catch (error) {
        if (retry && !options.signal?.aborted) {
          await delay(retryDelayMs);
          continue;
        }
        throw transportError(method, path, error, options.signal);
      }
      let data: unknown;
      try {
        data = withoutToken(await readJson(response.body, method, path, maxResponseBytes), token);
      } catch (error) {
        throw isSvcError(error) ? error : transportError(method, path, error, options.signal);
      }
      const status = response.statusCode;
      if (status >= 200 && status < 300) {
        const link = response.headers.link;
        return typeof link === 'string' ? { data, link } : { data };
      }
      if (retry && RETRYABLE_STATUS.has(status)) {
        await delay(retryDelayMs);
        continue;
      }
      throw githubResponseError({ method, path, status, headers: response.headers, body: data, now: now() });
    }
  }

  async function lookUpTokenUser(): Promise<TokenUser | undefined> {
    let user: unknown;
    try {
      ({ data: user } = await send('GET', `${apiUrl}/user`, undefined));
    } catch (error) {
      // A rate limit's 403 is RATE_LIMITED, not GITHUB_API: only "no user here" means an installation.
      const status = isSvcError(error) && error.code === 'GITHUB_API' ? error.details.status : undefined;
      if (status === 403 || status === 404) return undefined;
      throw error;
    }
    const { id, login } = (typeof user === 'object' && user !== null ? user : {}) as Record<string, unknown>;
    if (typeof id !== 'number' || typeof login !== 'string')
      throw new SvcError('BAD_RESPONSE', 'GitHub API GET /user returned no user id and login');
    return { id, login };
  }
  let tokenUser: Promise<TokenUser | undefined> | undefined;

  return {
    apiUrl,
    async request<T>(method: HttpMethod, path: string, body?: unknown): Promise<T> {
      return (await send(method, apiUrl + path, body)).data as T;
    },
    tokenUser() {
      tokenUser ??= lookUpTokenUser();
      return tokenUser;
    },
    async *paginate<T>(path: string): AsyncGenerator<T[], void, undefined> {
      let url: string | undefined = apiUrl + path;
      for (let page = 1; url !== undefined; page += 1) {
        if (page > maxPages) {
          throw new SvcError('GITHUB_API', `GitHub API GET ${path}: more than ${maxPages} pages`, {
            hint: 'the list is larger than svc-gitops reads; tidy up old comments or issues',
            details: { method: 'GET', path, maxPages },
          });
        }
        const { data, link } = await send('GET', url, undefined);
        if (!Array.isArray(data)) {
          throw new SvcError(
            'BAD_RESPONSE',
            `GitHub API GET ${url.slice(apiUrl.length)} did not return a list`,
            {
              details: { method: 'GET', path: url.slice(apiUrl.length) },
            },
          );
        }
        yield data as T[];
        url = nextPageUrl(link, apiUrl);
      }
    },
    close: () => agent.close(),
  };
}

/** The next page, refusing links that leave the API base (the token must not travel there). */
function nextPageUrl(link: string | undefined, apiUrl: string): string | undefined {
  const next = linkWithRel(link, 'next');
  if (next === undefined) return undefined;
  if (!next.startsWith(`${apiUrl}/`)) {
    throw new SvcError('BAD_RESPONSE', `GitHub sent a pagination link outside ${apiUrl}`, {
      hint: 'check GITHUB_API_URL: it must be the API base the server itself uses in its links',
      details: { apiUrl },
    });
  }
  return next;
}

function normaliseApiUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Not quoted: the text may carry credentials, and an invalid URL cannot be parsed to drop them.
    throw new SvcError('USAGE', 'GITHUB_API_URL is not a URL', {
      hint: 'e.g. https://api.github.com',
    });
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new SvcError('USAGE', 'GITHUB_API_URL must not carry credentials, a query or a fragment');
  }
  return url.toString().replace(/\/+$/, '');
}

async function readJson(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  method: string,
  path: string,
  limit: number,
): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) {
      body.destroy();
      throw new SvcError(
        'RESPONSE_TOO_LARGE',
        `GitHub API ${method} ${path}: response larger than ${limit} bytes`,
        {
          details: { method, path, limit },
        },
      );
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Error pages from proxies are HTML or text: keep them as a string for the error message.
    return text;
  }
}

/**
 * GitHub's answer with the token masked wherever it quotes it (in keys and strings, in any spelling
 * SecretMask knows, as text from a server), before any of it becomes a message (clipped to a
 * length that could cut the token in two), a URL or a step output.
 */
function withoutToken(data: unknown, token: string): unknown {
  if (data === undefined) return data;
  const mask = new SecretMask([token]);
  return mask.findsEcho(JSON.stringify(data)) ? maskedJson(data, mask) : data;
}

function maskedJson(value: unknown, mask: SecretMask): unknown {
  if (typeof value === 'string') return mask.maskEcho(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => maskedJson(item, mask));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(out, mask.maskEcho(key), {
      value: maskedJson(item, mask),
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return out;
}

function transportError(
  method: string,
  path: string,
  error: unknown,
  signal: AbortSignal | undefined,
): SvcError {
  if (signal?.aborted) return new SvcError('INTERRUPTED', `GitHub API ${method} ${path} was cancelled`);
  const code = (error as { code?: unknown }).code;
  const timedOut =
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT';
  const reason = typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
  return new SvcError(timedOut ? 'TIMEOUT' : 'CONNECTION_FAILED', `GitHub API ${method} ${path}: ${reason}`, {
    hint: 'check the network and GITHUB_API_URL',
    details: { method, path, reason },
    cause: error,
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
