import { SvcError } from '../../errors.js';
import { isRetryableNetworkCode } from './failures.js';
import { sleep } from './limits.js';
import type { HttpRequest, HttpResponse } from './messages.js';
import { nextDelay, type RetryPolicy } from './retry.js';

export interface RetryClock {
  /** Milliseconds, monotonic enough to measure the budget. */
  now: () => number;
  random: () => number;
  /** Called before each wait, with the attempt just made (for counters and tests). */
  onRetry?: (attempt: number, delay: number) => void;
}

/**
 * Sends `req` through `attempt`, repeating it under `policy` when it is marked `retry` (see
 * retry.ts for what is repeated). Returns the last reply or throws the last failure: a reply
 * given up on is returned as it came (its status is the caller's to judge), never altered.
 */
export async function sendWithRetries(
  req: HttpRequest,
  /** One attempt; calls `sending` once it has waited its turn and the request goes out. */
  attempt: (req: HttpRequest, sending: () => void) => Promise<HttpResponse>,
  policy: RetryPolicy,
  clock: RetryClock,
): Promise<HttpResponse> {
  // The budget runs from the first attempt going out: time queued behind other requests (the
  // concurrency and rate limits) is not the dashboard's to answer for.
  let started: number | undefined;
  const sending = () => {
    started ??= clock.now();
  };
  for (let n = 1; ; n++) {
    let response: HttpResponse;
    try {
      response = await attempt(req, sending);
    } catch (error) {
      const delay = req.retry && isRetryableFailure(error) ? waitBefore(n, undefined) : undefined;
      if (delay === undefined) throw error;
      await pause(n, delay);
      continue;
    }
    if (!req.retry || (response.status < 500 && response.status !== 429)) return response;
    const delay = waitBefore(n, response.headers['retry-after']);
    if (delay === undefined) return response;
    await pause(n, delay);
  }

  function waitBefore(n: number, retryAfter: string | string[] | undefined): number | undefined {
    const elapsed = started === undefined ? 0 : clock.now() - started;
    return nextDelay(n, elapsed, retryAfter, policy, clock.random);
  }

  async function pause(n: number, delay: number): Promise<void> {
    clock.onRetry?.(n, delay);
    await sleep(delay, req.signal);
  }
}

/**
 * Failures another attempt may cure: timeouts, dropped or refused connections, and a 2xx body
 * that was cut off or is not JSON (`unreadableBody`). Never TLS failures, size caps, the data
 * budget or an interruption.
 */
export function isRetryableFailure(error: unknown): boolean {
  if (!(error instanceof SvcError)) return false;
  if (error.code === 'TIMEOUT') return true;
  if (error.code === 'BAD_RESPONSE') return error.details.unreadableBody === true;
  return error.code === 'CONNECTION_FAILED' && isRetryableNetworkCode(String(error.details.networkCode));
}
