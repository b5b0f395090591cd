import { Agent } from 'undici';
import { SvcError } from '../../errors.js';
import { publicUrl } from '../../public-url.js';
import { DEFAULT_PRODUCT } from '../../settings/types.js';
import { AbortFanout } from './abort.js';
import { EchoMask } from './echoes.js';
import { DataBudget, interrupted, RateLimiter, Semaphore, sleep } from './limits.js';
import type { HttpRequest } from './messages.js';
import { PaceController } from './pacing.js';
import { assertHeadFits } from './request-line.js';
import { MAX_RETRY_AFTER_MS, parseRetryAfter, RETRY_BUDGET_MS } from './retry.js';
import { isRetryableFailure, sendWithRetries } from './retrying.js';
import { outgoingHeaders, sendOnce } from './send-once.js';
import { gatedDispatcher } from './start-gate.js';

import type { Transport, TransportConfig } from './transport-config.js';

export type { HttpRequest, HttpResponse } from './messages.js';
export type { Transport, TransportConfig, TransportStats } from './transport-config.js';

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
