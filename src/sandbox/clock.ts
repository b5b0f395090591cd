/**
 * The simulated clock of queued jobs. `fast` stands still except when advanced (by a job poll or
 * `POST /__sandbox/clock`), so tests and demos never wait; `realistic` also follows wall time.
 */
export type ClockMode = 'fast' | 'realistic';

export class SimClock {
  readonly mode: ClockMode;
  private readonly realStart = Date.now();
  private base: number;
  private offset = 0;

  constructor(mode: ClockMode, startMs: number = Date.now()) {
    this.mode = mode;
    this.base = startMs;
  }

  now(): number {
    return this.base + this.offset + (this.mode === 'realistic' ? Date.now() - this.realStart : 0);
  }

  advance(seconds: number): void {
    this.offset += Math.max(0, seconds) * 1000;
  }

  advanceTo(ms: number): void {
    const now = this.now();
    if (ms > now) this.offset += ms - now;
  }

  /** Restores a persisted simulated time (never moves backwards). */
  restore(ms: number): void {
    this.advanceTo(ms);
  }
}

/** `YYYY-MM-DDTHH:MM:SSZ`, as job timestamps are sent. */
export function jobTimestamp(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** `YYYY-MM-DDTHH:MM:SS` in UTC without a zone, as REST timestamps are sent. */
export function restTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}
