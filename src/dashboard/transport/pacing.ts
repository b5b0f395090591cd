/**
 * Adaptive pacing of the requests in flight: a window between 1 and the configured concurrency,
 * additive increase and multiplicative decrease (as TCP congestion control) driven by what the
 * dashboard answers. Invariants:
 * - a 429 or 503, a dropped connection or timeout, or any reply with Retry-After halves the
 *   window (at most once per `window` replies, so one burst of refusals counts once) and holds
 *   new requests for the Retry-After (capped at `maxPauseMs`, the longest Retry-After the retry
 *   policy honours): only refusals take the window below its latency floor, down to 1;
 * - latency is judged per route (an ability, a REST route), each against its own best: a page
 *   of updates is slow by nature next to a site listing page, and neither says the other is
 *   queueing. A route whose smoothed time rises well above its own best (3 × and 250 ms more)
 *   is a dashboard that is queueing work: the window shrinks by one, never below the latency
 *   floor (half the configured concurrency), so good replies never collapse it to one;
 * - `window` consecutive healthy replies grow the window by one, up to the configured maximum.
 * Pure state and arithmetic: the caller supplies times, so it is tested without a clock.
 */
export class PaceController {
  private current: number;
  private healthyRun = 0;
  private sinceDecrease = Number.POSITIVE_INFINITY;
  private readonly routes = new Map<string, RouteLatency>();
  private pauseUntilMs = 0;
  /** The lowest window latency alone may set. */
  readonly latencyFloor: number;

  constructor(
    private readonly max: number,
    private readonly maxPauseMs: number,
  ) {
    this.current = Math.max(1, max);
    this.latencyFloor = Math.max(1, Math.ceil(this.current / 2));
  }

  /** Requests allowed in flight now. */
  get window(): number {
    return this.current;
  }

  /** Milliseconds a new request must still wait at `nowMs` (a Retry-After in force). */
  waitMs(nowMs: number): number {
    return Math.max(0, this.pauseUntilMs - nowMs);
  }

  /**
   * Records one reply: its status (undefined for a dropped connection or timeout), how long it
   * took, the server's Retry-After in ms when it sent one, and its route (the path without its
   * query; replies without one share a route).
   */
  observe(
    reply: { status: number | undefined; ms: number; retryAfterMs?: number | undefined; route?: string },
    nowMs: number,
  ): void {
    this.sinceDecrease++;
    const refused = reply.status === undefined || reply.status === 429 || reply.status === 503;
    if (reply.retryAfterMs !== undefined) {
      this.pauseUntilMs = Math.max(this.pauseUntilMs, nowMs + Math.min(reply.retryAfterMs, this.maxPauseMs));
    }
    if (refused || reply.retryAfterMs !== undefined) {
      this.decrease(Math.floor(this.current / 2));
      return;
    }
    if (reply.status !== undefined && reply.status >= 500) {
      this.healthyRun = 0;
      return;
    }
    const key = reply.route ?? '';
    let route = this.routes.get(key);
    if (!route) {
      route = new RouteLatency();
      this.routes.set(key, route);
    }
    if (route.add(reply.ms)) {
      if (this.current > this.latencyFloor) this.decrease(this.current - 1);
      else this.healthyRun = 0;
      return;
    }
    if (++this.healthyRun >= this.current && this.current < this.max) {
      this.current++;
      this.healthyRun = 0;
    }
  }

  private decrease(to: number): void {
    this.healthyRun = 0;
    if (this.sinceDecrease < this.current) return;
    this.sinceDecrease = 0;
    this.current = Math.max(1, to);
  }
}

/** One route's smoothed reply time against the best it has had. */
class RouteLatency {
  private smoothedMs: number | undefined;
  private baselineMs = Number.POSITIVE_INFINITY;

  /** Adds a reply's time; true when the route's latency has risen well above its best. */
  add(ms: number): boolean {
    this.smoothedMs = this.smoothedMs === undefined ? ms : this.smoothedMs * 0.8 + ms * 0.2;
    this.baselineMs = Math.min(this.baselineMs, this.smoothedMs);
    return this.smoothedMs > 3 * this.baselineMs && this.smoothedMs > this.baselineMs + 250;
  }
}
