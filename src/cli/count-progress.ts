import type { OutputStream } from './context.js';
import { formatDuration } from './progress.js';
import { createProgressLine } from './progress-line.js';

export interface CountProgressPrinter {
  onProgress(done: number, total: number): void;
  /** Clears the live line (call before anything else is printed). */
  finish(): void;
}

/**
 * Progress of a step that counts to a known total (a health check of many sites, a search of
 * installed items) on stderr, as `label: done/total (p%), ETA`, as one progress line
 * (createProgressLine).
 */
export function createCountProgressPrinter(
  stream: OutputStream,
  clock: () => number,
  label: string,
  options: { quiet?: boolean; plainIntervalMs?: number } = {},
): CountProgressPrinter {
  const line = createProgressLine(stream, clock, options);
  return {
    onProgress: (done, total) => line.update((elapsed) => countText(label, done, total, elapsed)),
    finish: () => line.finish(),
  };
}

function countText(label: string, done: number, total: number, elapsed: number): string {
  const left = total - done;
  const eta = left > 0 && done > 0 && elapsed > 0 ? `, ETA ${formatDuration((left / done) * elapsed)}` : '';
  const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
  return `${label}: ${done}/${total} (${percent}%)${eta}`;
}
