import { Agent, type Dispatcher, request } from 'undici';
import { SvcError } from '../../errors.js';
import { publicUrl } from '../../public-url.js';
import { DEFAULT_PRODUCT } from '../../settings/types.js';
import { type Json, parseJson } from '../wire/json.js';
import { AbortFanout } from './abort.js';
import { attemptDeadline } from './deadline.js';
import { EchoMask } from './echoes.js';
import {
  connectionFailure,
  describeNotJson,
  isTimeoutCode,
  networkCode,
  notJsonHint,
  timeoutFailure,
} from './failures.js';
import { DataBudget, interrupted, type PacingTimers, RateLimiter, Semaphore, sleep } from './limits.js';
import type { HttpRequest, HttpResponse } from './messages.js';
import { PaceController } from './pacing.js';
import { assertHeadFits } from './request-line.js';
import { MAX_RETRY_AFTER_MS, parseRetryAfter, RETRY_BUDGET_MS } from './retry.js';
import { isRetryableFailure, sendWithRetries } from './retrying.js';
import { gatedDispatcher } from './start-gate.js';

export type { HttpRequest, HttpResponse } from './messages.js';

export interface TransportConfig {
  /** Dashboard base URL without trailing slash. */
  baseUrl: string;
  timeoutMs: number;
  maxResponseSize: number;
  /** Cumulative response bytes; 0 = no budget. */
  maxSessionData: number;
  /** Calls per minute, 0 = off (adaptive pacing alone). */
  rateLimit: number;
  /** Total attempts for retryable requests. */
  maxAttempts: number;
  retryBaseDelay: number;
  retryMaxDelay: number;
  /** Milliseconds from a request's first attempt after which no retry starts (default 120 s). */
  retryBudget?: number;
  /** Longest Retry-After honoured, in milliseconds (default 30 s). */
  maxRetryAfter?: number;
  /** Most requests in flight; adaptive pacing works below it. */
  concurrency: number;
  skipSslVerify: boolean;
  onRequest?: (event: { method: string; path: string; status?: number; ms: number }) => void;
  /** Jitter source; injectable so backoff can be reasoned about. */
  random?: () => number;
  /** Milliseconds clock for pacing; injectable for tests. */
  now?: () => number;
  /**
   * Clock and waits of the rate limiter and of Retry-After pauses (and then also the pacing's
   * clock); injectable so a test runs a paced apply in virtual time.
   */
  timers?: PacingTimers;
  /**
   * Once aborted, no request goes out that has not gone out yet: requests waiting for a slot or
   * the rate limiter (a retry too), and requests handed to undici whose socket is not free yet
   * (checked where undici puts them on it, start-gate.ts), end with INTERRUPTED (`details.sent`
   * false when no attempt of it left), while requests already sent are answered as usual
   * (Ctrl-C: stop now, but never cut a write off halfway).
   */
  startSignal?: AbortSignal;
  /**
   * Values no parsed answer may carry besides the credentials the requests send (those are
   * learnt from the Authorization headers): a front end's own secrets, masked the same way.
   */
  alsoMask?: ReadonlyArray<string | undefined>;
  /** The product whose variables hints name (`svc`: SVC_URL; the tool server's --namespace). */
  product?: string;
}

export interface TransportStats {
  requests: number;
  /** Requests whose bytes left (undici put them on a socket); none leaves once startSignal aborted. */
  sent: number;
  /** Of those, the ones not answered yet. */
  inFlight: number;
  responseBytes: number;
  retries: number;
  /** Requests the adaptive pacing allows in flight now. */
  window: number;
}

export interface Transport {
  send(req: HttpRequest): Promise<HttpResponse>;
  stats(): TransportStats;
  close(): Promise<void>;
}

/**
 * The one HTTP path to the dashboard: a keep-alive undici Agent of its own (certificate checks
 * off only on this dispatcher when skipSslVerify), concurrency paced by the dashboard's replies
 * (PaceController), an optional calls-per-minute limit, request lines kept within a web server's
 * limit, a per-attempt timeout covering headers and body, a size cap enforced while the body
 * streams, a cumulative data budget, and retries with backoff and jitter for retryable requests.
 * Non-2xx responses are returned (the caller knows what they mean); only transport failures throw.
 */
export function createTransport(config: TransportConfig): Transport {
  const agent = new Agent({
    connections: config.concurrency,
    keepAliveTimeout: 10_000,
    headersTimeout: config.timeoutMs,
    bodyTimeout: config.timeoutMs,
    connect: { rejectUnauthorized: !config.skipSslVerify, timeout: config.timeoutMs },
  });
  const slots = new Semaphore(config.concurrency);
  const pace = new PaceController(config.concurrency, config.maxRetryAfter ?? MAX_RETRY_AFTER_MS);
  const now = config.timers?.now ?? config.now ?? (() => performance.now());
  const pause = config.timers?.sleep ?? sleep;
  const aborts = new AbortFanout();
  const rate = new RateLimiter(config.rateLimit, config.timers);
  const product = config.product ?? DEFAULT_PRODUCT;
  const budget = new DataBudget(config.maxSessionData, product);
  const basePath = new URL(config.baseUrl).pathname.replace(/\/+$/, '');
  const host = new URL(config.baseUrl).host;
  const counters = { requests: 0, retries: 0, sent: 0, inFlight: 0 };
  const origin = new URL(config.baseUrl).origin;
  const shownUrl = publicUrl(config.baseUrl).replace(/\/+$/, '');
  const echoes = new EchoMask();
  echoes.watch(config.alsoMask ?? []);
  const policy = {
    maxAttempts: config.maxAttempts,
    retryBaseDelay: config.retryBaseDelay,
    retryMaxDelay: config.retryMaxDelay,
    retryBudget: config.retryBudget ?? RETRY_BUDGET_MS,
    maxRetryAfter: config.maxRetryAfter ?? MAX_RETRY_AFTER_MS,
  };
  const clock = {
    now,
    random: config.random ?? Math.random,
    onRetry: () => {
      counters.retries++;
    },
  };

  // Asked again where undici puts a request on a socket (start-gate.ts): nothing leaves once
  // the start signal aborted, however long ago the request was handed to undici.
  const gateClosed = () => config.startSignal?.aborted === true;

  async function attempt(
    req: HttpRequest,
    sending: () => void,
    onWire: () => void,
    wait: AbortSignal | undefined,
  ) {
    await pause(pace.waitMs(now()), wait);
    const release = await slots.acquire(wait);
    const started = now();
    let status: number | undefined;
    let retryAfterMs: number | undefined;
    let onSocket = false;
    const wire = () => {
      onSocket = true;
      counters.sent++;
      counters.inFlight++;
      onWire();
    };
    try {
      await rate.take(wait);
      if (config.startSignal?.aborted) throw interrupted();
      counters.requests++;
      sending();
      const dispatcher = config.startSignal ? gatedDispatcher(agent, gateClosed, interrupted, wire) : agent;
      if (!config.startSignal) wire();
      const response = await sendOnce(dispatcher, config, budget, req, { origin, shownUrl }, echoes);
      status = response.status;
      const header = response.headers['retry-after'];
      retryAfterMs = parseRetryAfter(Array.isArray(header) ? header[0] : header, Date.now());
      return response;
    } catch (error) {
      // Only failures of the connection tell of a strained dashboard; our own refusals do not.
      if (!isRetryableFailure(error)) status = 0;
      throw error;
    } finally {
      if (onSocket) counters.inFlight--;
      if (status !== 0) pace.observe({ status, ms: now() - started, retryAfterMs, route: req.path }, now());
      slots.setLimit(pace.window);
      release();
    }
  }

  return {
    async send(original) {
      assertHeadFits(basePath, host, {
        method: original.method,
        path: original.path,
        query: original.query ?? '',
        headers: outgoingHeaders(original),
        hasBody: original.body !== undefined,
      });
      // Everything below (slot wait, rate wait, undici, backoff sleeps) listens on a per-request
      // child signal, so concurrent requests add one listener in all to a shared caller signal.
      const { signal, unlink } = aborts.link(original.signal);
      const req = { ...original, signal };
      // The waits for a slot and the rate limiter also end when the start gate closes; a retry
      // waits there too, so none goes out after it either.
      const gate = waitSignal(signal, config.startSignal, aborts);
      // Whether an attempt's bytes left (undici put it on a socket), not merely handed over.
      let sent = false;
      const gated = (r: HttpRequest, sending: () => void) =>
        attempt(
          r,
          sending,
          () => {
            sent = true;
          },
          gate.signal,
        );
      echoes.learn(req.headers);
      try {
        return await sendWithRetries(req, gated, policy, clock);
      } catch (error) {
        const held =
          config.startSignal?.aborted === true &&
          signal?.aborted !== true &&
          error instanceof SvcError &&
          error.code === 'INTERRUPTED';
        throw held ? notSent(sent) : error;
      } finally {
        gate.unlink();
        unlink();
      }
    },
    stats: () => ({
      requests: counters.requests,
      sent: counters.sent,
      inFlight: counters.inFlight,
      responseBytes: budget.used,
      retries: counters.retries,
      window: pace.window,
    }),
    close: () => agent.close(),
  };
}

/**
 * A request the start gate held back. `details.sent` says whether an earlier attempt of it went
 * out (its effect is then unknown); false means the dashboard never saw it.
 */
function notSent(sent: boolean): SvcError {
  return new SvcError(
    'INTERRUPTED',
    sent ? 'interrupted before the request was sent again' : 'interrupted before the request was sent',
    { details: { sent } },
  );
}

/** A signal that aborts when `own` or `gate` does; `unlink` drops the listener on the shared gate. */
function waitSignal(
  own: AbortSignal | undefined,
  gate: AbortSignal | undefined,
  fanout: AbortFanout,
): { signal: AbortSignal | undefined; unlink: () => void } {
  if (!gate) return { signal: own, unlink: () => {} };
  const controller = new AbortController();
  if (gate.aborted || own?.aborted) {
    controller.abort();
    return { signal: controller.signal, unlink: () => {} };
  }
  const abort = () => controller.abort();
  own?.addEventListener('abort', abort, { once: true });
  const unsubscribe = fanout.subscribe(gate, abort);
  return {
    signal: controller.signal,
    unlink: () => {
      unsubscribe();
      own?.removeEventListener('abort', abort);
    },
  };
}

/** The headers of a request as sent, before undici adds Host, Connection and Content-Length. */
function outgoingHeaders(req: HttpRequest): Record<string, string> {
  return {
    accept: 'application/json',
    'user-agent': 'svc-gitops',
    ...req.headers,
    ...(req.body === undefined ? {} : { 'content-type': 'application/json' }),
  };
}

async function sendOnce(
  agent: Dispatcher,
  config: TransportConfig,
  budget: DataBudget,
  req: HttpRequest,
  { origin, shownUrl }: { origin: string; shownUrl: string },
  echoes: EchoMask,
): Promise<HttpResponse> {
  const started = performance.now();
  const where = `${req.method} ${req.path}`;
  let status: number | undefined;
  const deadline = attemptDeadline(config.timeoutMs, req.signal);
  try {
    const url = config.baseUrl + req.path + (req.query ? `?${req.query}` : '');
    const headers = outgoingHeaders(req);
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    // Timeouts: the agent's connect/headers/body timers cover silence; readCapped caps the total
    // time of a body that keeps trickling with one timer for the rest of the attempt's time.
    const res = await request(url, {
      method: req.method,
      headers,
      dispatcher: agent,
      ...(deadline.signal ? { signal: deadline.signal } : {}),
      ...(body === undefined ? {} : { body }),
    });
    status = res.statusCode;
    const text = await readCapped(res, config, budget, req, started);
    return {
      status: res.statusCode,
      headers: res.headers,
      ...parseReply(
        text,
        res.statusCode,
        res.headers['content-type'],
        where,
        shownUrl,
        echoes,
        config.product,
      ),
    };
  } catch (error) {
    if (deadline.expired && !req.signal?.aborted)
      throw timeoutFailure(req.method, req.path, config.timeoutMs, config.product ?? DEFAULT_PRODUCT);
    if (error instanceof SvcError) throw error;
    if (req.signal?.aborted) throw interrupted();
    if (isTimeoutCode(networkCode(error)))
      throw timeoutFailure(req.method, req.path, config.timeoutMs, config.product ?? DEFAULT_PRODUCT);
    throw connectionFailure(error, req.method, req.path, origin, config.product ?? DEFAULT_PRODUCT);
  } finally {
    deadline.clear();
    const event = { method: req.method, path: req.path, ms: performance.now() - started };
    config.onRequest?.(status === undefined ? event : { ...event, status });
  }
}

/**
 * The body as JSON (undefined when empty). A body that is not JSON is never quoted (it may echo a
 * credential): when it is of another kind (another web server's HTML page: a wrong port or path),
 * a 2xx reply fails naming its status and type, and a failed status comes back described in
 * `notJson`, still the caller's to judge (and to retry). Truncated JSON of a 2xx stays BAD_RESPONSE.
 */
function parseReply(
  text: string,
  status: number,
  contentType: string | string[] | undefined,
  where: string,
  shownUrl: string,
  echoes: EchoMask,
  product = DEFAULT_PRODUCT,
): Pick<HttpResponse, 'body' | 'notJson' | 'text'> {
  if (text.length === 0 || (text.length < 16 && text.trim() === '')) return { body: undefined };
  let parsed: Json;
  try {
    parsed = parseJson(text, where);
  } catch (error) {
    const what = describeNotJson(contentType, text);
    if (status < 200 || status >= 300) {
      return {
        body: undefined,
        notJson: what ? `the reply is ${what}, not JSON` : 'the reply is not valid JSON',
      };
    }
    // `unreadableBody`: the same request asked again may well answer whole (retrying.ts).
    if (what === undefined) {
      if (!(error instanceof SvcError)) throw error;
      const bad = error;
      throw new SvcError(bad.code, bad.message, {
        ...(bad.hint === undefined ? {} : { hint: bad.hint }),
        details: { ...bad.details, status, unreadableBody: true },
      });
    }
    throw new SvcError('BAD_RESPONSE', `${where}: HTTP ${status}, but the reply is ${what}, not JSON`, {
      hint: notJsonHint(status, shownUrl, product),
      details: { where, status, unreadableBody: true },
    });
  }
  const masked = echoes.mask(parsed, text);
  // A dropped `__proto__` key (parseJson) also makes the text say more than the body.
  const same = !masked.changed && text.indexOf('"__proto__"') === -1;
  return same ? { body: masked.body, text } : { body: masked.body };
}

/**
 * Reads the body as UTF-8, refusing it as soon as it grows past the size limit or the attempt
 * outlives the request timeout (a body that trickles in never trips the agent's idle timer).
 */
async function readCapped(
  res: Dispatcher.ResponseData,
  config: TransportConfig,
  budget: DataBudget,
  req: HttpRequest,
  started: number,
): Promise<string> {
  const where = `${req.method} ${req.path}`;
  const limit = Math.max(config.maxResponseSize, req.fleetSizedLimit ?? 0);
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    discard(res.body);
    throw tooLarge(where, `response size ${declared} bytes exceeds the maximum of ${limit} bytes`, limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  // A body trickling in keeps the agent's idle timer quiet: this timer ends it when the attempt's
  // time is up, between chunks as well as at one.
  let timedOut = false;
  const timer = setTimeout(
    () => {
      timedOut = true;
      discard(res.body);
    },
    Math.max(0, config.timeoutMs - (performance.now() - started)),
  );
  try {
    for await (const chunk of res.body) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      if (size > limit) {
        discard(res.body);
        throw tooLarge(where, `response body exceeds the ${limit} bytes limit`, limit);
      }
      try {
        budget.add(buffer.length);
      } catch (error) {
        discard(res.body);
        throw error;
      }
      chunks.push(buffer);
    }
  } catch (error) {
    if (timedOut)
      throw timeoutFailure(req.method, req.path, config.timeoutMs, config.product ?? DEFAULT_PRODUCT);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  if (timedOut)
    throw timeoutFailure(req.method, req.path, config.timeoutMs, config.product ?? DEFAULT_PRODUCT);
  return chunks.length === 1
    ? (chunks[0] as Buffer).toString('utf8')
    : Buffer.concat(chunks, size).toString('utf8');
}

/** Drops a body we refuse; the abort it raises has nobody to tell, so it is swallowed here. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {});
  body.destroy();
}

function tooLarge(where: string, what: string, limit: number): SvcError {
  return new SvcError('RESPONSE_TOO_LARGE', `${where}: ${what}`, {
    hint: 'Raise maxResponseSize (SVC_MAX_RESPONSE_SIZE) if the dashboard is expected to send this much.',
    details: { limit },
  });
}
