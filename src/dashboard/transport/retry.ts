/** Longest Retry-After honoured; a server asking for more gets its 429/5xx reported instead. */
const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Milliseconds to wait before attempt `n + 1`, or undefined when the server asked for a wait
 * longer than we are willing to hold a run for. Exponential backoff capped at retryMaxDelay,
 * with equal jitter (half fixed, half random) so parallel clients do not retry in lockstep.
 */
export function retryDelay(
  attempt: number,
  retryAfter: string | string[] | undefined,
  config: { retryBaseDelay: number; retryMaxDelay: number },
  random: () => number,
): number | undefined {
  const asked = parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, Date.now());
  if (asked !== undefined) return asked > MAX_RETRY_AFTER_MS ? undefined : asked;
  const capped = Math.min(config.retryMaxDelay, config.retryBaseDelay * 2 ** (attempt - 1));
  return Math.round(capped / 2 + (capped / 2) * random());
}

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
