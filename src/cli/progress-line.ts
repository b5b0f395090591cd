import type { OutputStream } from './context.js';

export interface ProgressLineOptions {
  quiet?: boolean;
  /** Milliseconds between plain lines off a terminal (default 10 s). */
  plainIntervalMs?: number;
  /**
   * Runs `tick` every `ms` until the returned function is called (default: an unref'd
   * setInterval). The latest state is shown on each tick, so a line is due on time even while
   * nothing is answered (a rate limiter's wait, one slow request).
   */
  every?: (ms: number, tick: () => void) => () => void;
}

export interface ProgressLine {
  /**
   * Offers a new state; `text` is called (with the time since the start) only when a line is
   * due: at a terminal at most every 100 ms, elsewhere every `plainIntervalMs` (default 10 s).
   * The latest state is shown again on the timer while no new one comes.
   */
  update(text: (elapsedMs: number) => string): void;
  /** Clears the live line and stops the timer (call before anything else is printed). */
  finish(): void;
}

/** How often the timer looks whether a line is due: a line is at most this late. */
const TICK_MS = 1_000;

const intervalTimer = (ms: number, tick: () => void) => {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
};

/**
 * One progress line on stderr: at a terminal a live line redrawn in place, elsewhere (CI logs
 * keep every line) a plain line every 10 s, so a step of a few seconds prints nothing there.
 * `quiet` prints nothing at all.
 */
export function createProgressLine(
  stream: OutputStream,
  clock: () => number,
  options: ProgressLineOptions = {},
): ProgressLine {
  const tty = stream.isTTY === true;
  const interval = tty ? 100 : (options.plainIntervalMs ?? 10_000);
  const started = clock();
  let lastShown = started;
  let liveLine = false;
  let latest: ((elapsedMs: number) => string) | undefined;
  const show = () => {
    const now = clock();
    if (latest === undefined || now - lastShown < interval) return;
    lastShown = now;
    if (tty) {
      stream.write(`\r\u001b[2K${latest(now - started)}`);
      liveLine = true;
    } else {
      stream.write(`${latest(now - started)}\n`);
    }
  };
  const stop = options.quiet
    ? undefined
    : (options.every ?? intervalTimer)(tty ? TICK_MS : Math.min(interval, TICK_MS), show);
  return {
    update(text) {
      if (options.quiet) return;
      latest = text;
      show();
    },
    finish() {
      stop?.();
      latest = undefined;
      if (liveLine) stream.write('\r\u001b[2K');
      liveLine = false;
    },
  };
}
