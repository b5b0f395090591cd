/**
 * One clock for the dashboard client's pacing (rate limiter, Retry-After waits) and the progress
 * lines, in virtual time: a sleep moves the clock forward at once, firing the periodic ticks it
 * passes on the way. A run with it is real (the CLI in process, the sandbox over loopback); only
 * its waits take no wall time, so its figures are in virtual time, none on the wall clock.
 */
export class VirtualTimers {
  time = 0;
  private readonly tickers = new Set<{ ms: number; next: number; tick: () => void }>();

  now = (): number => this.time;

  sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) throw new Error('aborted');
    this.advanceTo(this.time + Math.max(0, ms));
  };

  every = (ms: number, tick: () => void): (() => void) => {
    const ticker = { ms, next: this.time + ms, tick };
    this.tickers.add(ticker);
    return () => this.tickers.delete(ticker);
  };

  private advanceTo(target: number): void {
    for (;;) {
      const due = [...this.tickers].filter((t) => t.next <= target).sort((a, b) => a.next - b.next)[0];
      if (!due) break;
      this.time = Math.max(this.time, due.next);
      due.next += due.ms;
      due.tick();
    }
    this.time = Math.max(this.time, target);
  }
}
