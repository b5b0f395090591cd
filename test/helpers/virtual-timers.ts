import { type CliOptions, type CliRun, cli } from './cli.js';
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

/** A command run in virtual time: its result, and each stderr line with the time it was written. */
export interface PacedRun extends CliRun {
  lines: Array<{ at: number; text: string }>;
}

/**
 * `cli(argv)` with `timers` as its clock (the wall clock starting 2026-01-01 and moving with
 * them), recording every stderr line at the virtual time it was written.
 */
export async function cliInVirtualTime(
  argv: string[],
  options: CliOptions & { timers: VirtualTimers },
): Promise<PacedRun> {
  const { timers } = options;
  const lines: PacedRun['lines'] = [];
  const run = await cli(argv, {
    ...options,
    now: () => new Date(Date.UTC(2026, 0, 1) + timers.now()),
    onStderr: (text) => {
      for (const line of text.split('\n')) if (line.trim()) lines.push({ at: timers.now(), text: line });
    },
  });
  return { ...run, lines };
}
