import type { OutputStream } from './context.js';

export interface ProgressLine {
  /**
   * Offers a new state; `text` is called (with the time since the start) only when a line is
   * due: at a terminal at most every 100 ms, elsewhere every `plainIntervalMs` (default 10 s).
   */
  update(text: (elapsedMs: number) => string): void;
  /** Clears the live line (call before anything else is printed). */
  finish(): void;
}

/**
 * One progress line on stderr: at a terminal a live line redrawn in place, elsewhere (CI logs
 * keep every line) a plain line at most every 10 s, so a step of a few seconds prints nothing
 * there. `quiet` prints nothing at all.
 */
export function createProgressLine(
  stream: OutputStream,
  clock: () => number,
  options: { quiet?: boolean; plainIntervalMs?: number } = {},
): ProgressLine {
  const tty = stream.isTTY === true;
  const interval = tty ? 100 : (options.plainIntervalMs ?? 10_000);
  const started = clock();
  let lastShown = started;
  let liveLine = false;
  return {
    update(text) {
      if (options.quiet) return;
      const now = clock();
      if (now - lastShown < interval) return;
      lastShown = now;
      if (tty) {
        stream.write(`\r\u001b[2K${text(now - started)}`);
        liveLine = true;
      } else {
        stream.write(`${text(now - started)}\n`);
      }
    },
    finish() {
      if (liveLine) stream.write('\r\u001b[2K');
      liveLine = false;
    },
  };
}
