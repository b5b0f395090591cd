/**
 * When a request is tried again. Only requests marked `retry` (reads and idempotent writes) are
 * ever repeated; for those, an attempt is repeated after a 5xx or 429 reply, a timeout, a dropped
 * or refused connection, or a 2xx reply whose body is cut off or not JSON (a proxy's fault: the
 * same request asked again answers whole). Every wait is capped exponential backoff with equal
 * jitter, or the server's Retry-After when it asks for no more than `maxRetryAfterMs`, and no
 * further attempt starts once the wait would end past the request's total budget: a read is
 * given up, and reported, rather than held for ever.
 */
export interface RetryPolicy {
  /** Total attempts, the first included (1 = no retry). */
  maxAttempts: number;
  /** Backoff before attempt 2; doubled for each later attempt up to `retryMaxDelay`. */
  retryBaseDelay: number;
  retryMaxDelay: number;
  /** Milliseconds from the first attempt's start after which no further attempt starts. */
  retryBudget: number;
  /** Longest Retry-After honoured; a server asking for more gets its reply reported instead. */
  maxRetryAfter: number;
}

/** Defaults of what the settings do not expose: a read's total budget and the Retry-After cap. */
export const RETRY_BUDGET_MS = 120_000;
export const MAX_RETRY_AFTER_MS = 30_000;

/**
 * Milliseconds to wait before attempt `attempt + 1`, or undefined when there is to be none: the
 * attempts are used up, the server asked for a wait over the cap, or the wait would end past
 * the budget (`elapsed` is the time since the first attempt started).
 */
export function nextDelay(
  attempt: number,
  elapsed: number,
  retryAfter: string | string[] | undefined,
  policy: RetryPolicy,
  random: () => number,
  now: number = Date.now(),
): number | undefined {
  if (attempt >= policy.maxAttempts) return undefined;
  const delay = retryDelay(attempt, retryAfter, policy, random, now);
  if (delay === undefined || elapsed + delay > policy.retryBudget) return undefined;
  return delay;
}

/**
 * Milliseconds to wait before attempt `n + 1`, or undefined when the server asked for a wait
 * longer than `maxRetryAfter`. Exponential backoff capped at retryMaxDelay, with equal jitter
 * (half fixed, half random) so parallel clients do not retry in lockstep.
 */
export function retryDelay(
  attempt: number,
  retryAfter: string | string[] | undefined,
  policy: Pick<RetryPolicy, 'retryBaseDelay' | 'retryMaxDelay' | 'maxRetryAfter'>,
  random: () => number,
  now: number = Date.now(),
): number | undefined {
  const asked = parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, now);
  if (asked !== undefined) return asked > policy.maxRetryAfter ? undefined : asked;
  const capped = Math.min(policy.retryMaxDelay, policy.retryBaseDelay * 2 ** (attempt - 1));
  return Math.round(capped / 2 + (capped / 2) * random());
}

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
