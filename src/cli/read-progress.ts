import type { ReadProgress } from '../index.js';
import type { OutputStream } from './context.js';
import { formatDuration } from './progress.js';
import { createProgressLine, type ProgressLineOptions } from './progress-line.js';

export interface ReadProgressPrinter {
  onProgress(progress: ReadProgress): void;
  /** Clears the live line (call before anything else is printed). */
  finish(): void;
}

export interface ReadProgressOptions extends ProgressLineOptions {
  /** The client's calls per minute (0 or absent: none). */
  rateLimit?: number;
}

/**
 * Progress of a dashboard read on stderr: sites listed, requests answered of those needed, rate
 * and time left, as one progress line (createProgressLine), shown on time even while no request
 * is answered (a rate limiter's wait).
 */
export function createReadProgressPrinter(
  stream: OutputStream,
  clock: () => number,
  options: ReadProgressOptions = {},
): ReadProgressPrinter {
  const line = createProgressLine(stream, clock, options);
  const rateLimit = options.rateLimit ?? 0;
  // Shown from the start: a read whose first answers are slow still says it is alive.
  line.update((elapsed) => formatReadProgress({ done: 0, total: undefined, sites: 0 }, elapsed, rateLimit));
  return {
    onProgress: (progress) => line.update((elapsed) => formatReadProgress(progress, elapsed, rateLimit)),
    finish: () => line.finish(),
  };
}

/**
 * The rate is the requests answered per second since the read began. A rate limiter lets a
 * minute's allowance through at once and then waits, so early on that average runs far above
 * what the limiter allows over the read: it is capped at the limit's pace.
 */
export function formatReadProgress(progress: ReadProgress, elapsedMs: number, rateLimit = 0): string {
  const average = elapsedMs > 0 ? progress.done / (elapsedMs / 1000) : 0;
  const rate = rateLimit > 0 ? Math.min(average, rateLimit / 60) : average;
  const of = progress.total === undefined ? '' : `/${progress.total}`;
  const percent =
    progress.total === undefined || progress.total === 0
      ? ''
      : ` (${Math.floor((progress.done / progress.total) * 100)}%)`;
  const left = progress.total === undefined ? 0 : progress.total - progress.done;
  const eta = left > 0 && rate > 0 ? `, ETA ${formatDuration((left / rate) * 1000)}` : '';
  return `reading: ${progress.sites} sites listed, ${progress.done}${of} requests${percent}, ${formatRate(rate)} requests/s${eta}`;
}

/** Whole requests per second; below 10 one decimal, so a limit of 30 a minute reads 0.5, not 1. */
function formatRate(rate: number): string {
  return rate < 10 ? String(Math.round(rate * 10) / 10) : rate.toFixed(0);
}
