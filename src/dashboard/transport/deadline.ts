/**
 * undici times headers and bodies with its coarse timers (a tick every ~0.5 s), so a timeout
 * fires up to a second late: a 250 ms limit let a 750 ms answer through, and 1-1.5 s limits
 * fired ~0.6 s late. Below PRECISE_BELOW_MS an attempt therefore gets a native timer of its own
 * that aborts the request on time. From there on the late second is at most a tenth of the limit,
 * and the default limit (30 s) keeps the per-request controller and listener off the hot path.
 */
export const PRECISE_BELOW_MS = 10_000;

export interface Deadline {
  /** The signal to send the request with: the caller's, and the deadline's when one is set. */
  signal: AbortSignal | undefined;
  /** True once the deadline aborted the attempt (its failure is then a timeout). */
  readonly expired: boolean;
  clear(): void;
}

export function attemptDeadline(timeoutMs: number, signal: AbortSignal | undefined): Deadline {
  if (timeoutMs >= PRECISE_BELOW_MS) return { signal, expired: false, clear: () => {} };
  const controller = new AbortController();
  let expired = false;
  const forward = () => controller.abort(signal?.reason);
  if (signal?.aborted) forward();
  else signal?.addEventListener('abort', forward, { once: true });
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new Error(`request timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  return {
    signal: controller.signal,
    get expired() {
      return expired;
    },
    clear() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    },
  };
}
