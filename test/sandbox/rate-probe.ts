/**
 * Preloaded (`node --import tsx --import ./test/sandbox/rate-probe.ts …`) into a process that runs
 * the CLI in-process, such as scripts/demo.ts: records every RateLimiter.take() and the limit it
 * applied, and writes them as JSON to the file named by RATE_PROBE_OUT when the process exits.
 * No clock: it tells whether a call could have waited for the limiter, not how long anything took.
 */
import { writeFileSync } from 'node:fs';
import { RateLimiter } from '../../src/dashboard/transport/limits.js';

export interface RateProbe {
  /** Calls to take(): one per request the client started. */
  takes: number;
  /** The distinct calls-per-minute limits those calls were under (0 = off). */
  limits: number[];
}

const out = process.env.RATE_PROBE_OUT;
if (out) {
  let takes = 0;
  const limits = new Set<number>();
  const take = RateLimiter.prototype.take;
  RateLimiter.prototype.take = function (this: RateLimiter, ...args: Parameters<RateLimiter['take']>) {
    takes++;
    limits.add((this as unknown as { perMinute: number }).perMinute);
    return take.apply(this, args);
  };
  process.on('exit', () => {
    const probe: RateProbe = { takes, limits: [...limits] };
    writeFileSync(out, JSON.stringify(probe));
  });
}
