import type { PacingTimers } from './limits.js';
import type { HttpRequest, HttpResponse } from './messages.js';

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
