import type { OutputStream } from './context.js';
import { formatDuration } from './progress.js';

export interface CountProgressPrinter {
  onProgress(done: number, total: number): void;
  /** Clears the live line (call before anything else is printed). */
  finish(): void;
}

/**
 * Progress of a step that counts to a known total (a health check of many sites) on stderr, as
 * `label: done/total (p%), ETA`: at a terminal one live line redrawn at most every 100 ms,
 * elsewhere (CI logs keep every line) a plain line every 10 s, so a step of a few seconds prints
 * nothing there.
 */
export function createCountProgressPrinter(
  stream: OutputStream,
  clock: () => number,
  label: string,
  options: { plainIntervalMs?: number } = {},
): CountProgressPrinter {
  const tty = stream.isTTY === true;
  const interval = tty ? 100 : (options.plainIntervalMs ?? 10_000);
  const started = clock();
  let lastShown = started;
  let liveLine = false;
  return {
    onProgress(done, total) {
      const now = clock();
      if (now - lastShown < interval) return;
      lastShown = now;
      const elapsed = now - started;
      const left = total - done;
      const eta =
        left > 0 && done > 0 && elapsed > 0 ? `, ETA ${formatDuration((left / done) * elapsed)}` : '';
      const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
      const text = `${label}: ${done}/${total} (${percent}%)${eta}`;
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
