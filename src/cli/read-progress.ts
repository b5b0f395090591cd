import type { ReadProgress } from '../dashboard/index.js';
import type { OutputStream } from './context.js';
import { formatDuration } from './progress.js';

export interface ReadProgressPrinter {
  onProgress(progress: ReadProgress): void;
  /** Clears the live line (call before anything else is printed). */
  finish(): void;
}

/**
 * Progress of a dashboard read on stderr: sites listed, requests answered of those needed, rate
 * and time left. At a terminal one live line redrawn at most every 100 ms; elsewhere (CI logs
 * keep every line) a plain line every 10 s, so a read of a few seconds prints nothing.
 */
export function createReadProgressPrinter(
  stream: OutputStream,
  clock: () => number,
  options: { quiet?: boolean; plainIntervalMs?: number } = {},
): ReadProgressPrinter {
  const tty = stream.isTTY === true;
  const interval = tty ? 100 : (options.plainIntervalMs ?? 10_000);
  const started = clock();
  let lastShown = started;
  let liveLine = false;
  return {
    onProgress(progress) {
      if (options.quiet) return;
      const now = clock();
      if (now - lastShown < interval) return;
      lastShown = now;
      const text = formatReadProgress(progress, now - started);
      if (tty) {
        stream.write(`\r\u001b[2K${text}`);
        liveLine = true;
      } else {
        stream.write(`${text}\n`);
      }
    },
    finish() {
      if (liveLine) stream.write('\r\u001b[2K');
      liveLine = false;
    },
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
