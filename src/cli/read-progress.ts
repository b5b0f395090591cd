import type { ReadProgress } from '../dashboard/index.js';
import type { OutputStream } from './context.js';
import { formatDuration } from './progress.js';
import { createProgressLine } from './progress-line.js';

export interface ReadProgressPrinter {
  onProgress(progress: ReadProgress): void;
  /** Clears the live line (call before anything else is printed). */
  finish(): void;
}

/**
 * Progress of a dashboard read on stderr: sites listed, requests answered of those needed, rate
 * and time left, as one progress line (createProgressLine).
 */
export function createReadProgressPrinter(
  stream: OutputStream,
  clock: () => number,
  options: { quiet?: boolean; plainIntervalMs?: number } = {},
): ReadProgressPrinter {
  const line = createProgressLine(stream, clock, options);
  return {
    onProgress: (progress) => line.update((elapsed) => formatReadProgress(progress, elapsed)),
    finish: () => line.finish(),
  };
}

export function formatReadProgress(progress: ReadProgress, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? progress.done / (elapsedMs / 1000) : 0;
  const of = progress.total === undefined ? '' : `/${progress.total}`;
  const percent =
    progress.total === undefined || progress.total === 0
      ? ''
      : ` (${Math.floor((progress.done / progress.total) * 100)}%)`;
  const left = progress.total === undefined ? 0 : progress.total - progress.done;
  const eta = left > 0 && rate > 0 ? `, ETA ${formatDuration((left / rate) * 1000)}` : '';
  return `reading: ${progress.sites} sites listed, ${progress.done}${of} requests${percent}, ${rate.toFixed(0)} requests/s${eta}`;
}
