import { SvcError } from '../../errors.js';
import { settingVariable } from '../../settings/types.js';
import { AbortFanout } from './abort.js';

/**
 * The time the client paces by: its clock and its waits. Real timers unless a test injects a
 * virtual clock (a paced run in virtual time: a sleep moves the clock on at once).
 */
export interface PacingTimers {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Resolves after `ms`, or rejects with INTERRUPTED when `signal` aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(interrupted());
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(interrupted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function interrupted(): SvcError {
  return new SvcError('INTERRUPTED', 'stopped before the dashboard answered');
}

/**
 * Bounds the requests in flight. FIFO, so no caller starves. Waiters that share an abort signal
 * share one listener on it (AbortFanout), however many of them queue up. The limit may change
 * while requests are in flight (adaptive pacing): a lower limit takes effect as slots come back,
 * a higher one wakes waiters at once.
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly aborts = new AbortFanout();

  constructor(private limit: number) {}

  setLimit(limit: number): void {
    this.limit = Math.max(1, limit);
    while (this.active < this.limit && this.waiting.length > 0) {
      this.active++;
      this.waiting.shift()?.();
    }
  }

  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) throw interrupted();
    if (this.active < this.limit) {
      this.active++;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      let unsubscribe = () => {};
      const wake = () => {
        unsubscribe();
        resolve();
      };
      this.waiting.push(wake);
      if (signal) {
        unsubscribe = this.aborts.subscribe(signal, () => {
          const index = this.waiting.indexOf(wake);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(interrupted());
        });
      }
    });
    // The releasing caller handed its slot over without decrementing `active`.
    return this.releaser();
  }

  /** Callers waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (this.active > this.limit) {
        this.active--;
        return;
      }
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
  }
}

/**
 * Calls-per-minute limit over a sliding window: a call waits until fewer than `perMinute` calls
 * started in the last 60 s. 0 disables it. Waiting is the documented behaviour (never an error).
 */
export class RateLimiter {
  private readonly starts: number[] = [];

  constructor(
    private readonly perMinute: number,
    private readonly timers: PacingTimers = { now: Date.now, sleep },
  ) {}

  async take(signal?: AbortSignal): Promise<void> {
    if (this.perMinute <= 0) return;
    for (;;) {
      const now = this.timers.now();
      while (this.starts.length > 0 && (this.starts[0] ?? 0) <= now - 60_000) this.starts.shift();
      if (this.starts.length < this.perMinute) {
        this.starts.push(now);
        return;
      }
      await this.timers.sleep((this.starts[0] ?? now) + 60_000 - now, signal);
    }
  }
}

/** Cumulative response bytes of one client; crossing the budget is RESOURCE_EXHAUSTED (0 = no budget). */
export class DataBudget {
  used = 0;

  constructor(
    private readonly limit: number,
    private readonly product: string,
  ) {}

  add(bytes: number): void {
    this.used += bytes;
    if (this.limit > 0 && this.used > this.limit) {
      throw new SvcError(
        'RESOURCE_EXHAUSTED',
        `session data limit reached (${this.used} of ${this.limit} bytes read from the dashboard)`,
        {
          hint: `Raise maxSessionData (${settingVariable('maxSessionData', this.product)}) or narrow the run to fewer sites.`,
        },
      );
    }
  }
}
