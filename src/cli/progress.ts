import type { ApplyEvent, ApplyProgress } from '../apply/index.js';
import type { OutputStream } from './context.js';

/**
 * Progress of a long apply on stderr: a live line redrawn in place on a terminal (done/total,
 * failures, ETA), plain periodic lines otherwise (CI logs keep every line, so they are sparse).
 * Notable events (a stopped wave, an interruption, a failed re-read) always get their own line.
 */

export interface ProgressOptions {
  /** Milliseconds since some fixed point. */
  clock: () => number;
  /** Minimum time between plain lines (default 10 s). */
  plainIntervalMs?: number;
  /** Minimum time between terminal redraws (default 100 ms). */
  ttyIntervalMs?: number;
}

export interface ProgressReporter {
  onEvent(event: ApplyEvent): void;
  /** Clears the live line (call before printing the report). */
  finish(): void;
}

export function createProgress(stream: OutputStream, options: ProgressOptions): ProgressReporter {
  const tty = stream.isTTY === true;
  const interval = tty ? (options.ttyIntervalMs ?? 100) : (options.plainIntervalMs ?? 10_000);
  const pace = callPace();
  let lastShown = Number.NEGATIVE_INFINITY;
  let liveLine = false;

  const show = (text: string) => {
    if (tty) {
      stream.write(`\r\u001b[2K${text}`);
      liveLine = true;
    } else {
      stream.write(`${text}\n`);
    }
  };
  const say = (text: string) => {
    if (liveLine) stream.write('\r\u001b[2K');
    liveLine = false;
    stream.write(`${text}\n`);
  };
  const update = (progress: ApplyProgress, force: boolean) => {
    const now = options.clock();
    if (!force && now - lastShown < interval) return;
    lastShown = now;
    show(formatProgress(progress, pace.etaMs(now)));
  };

  return {
    onEvent(event) {
      switch (event.type) {
        case 'start':
          pace.start(event.calls);
          say(`apply: ${event.actions} action(s) in ${event.calls} call(s)`);
          break;
        case 'call-done':
          pace.callDone(options.clock());
          update(event.progress, event.progress.settled === event.progress.total);
          break;
        case 'job':
          if (tty) show(`apply: queued job ${event.jobId}: ${event.processed}/${event.total} sites`);
          break;
        case 'wave-stopped':
          say(
            `apply: wave ${event.wave ?? '(default)'} stopped: ${event.failed} failed update(s), more than ${event.maxFailures} allowed; later calls are skipped`,
          );
          break;
        case 'interrupted':
          say(
            `apply: interrupted after ${event.progress.settled}/${event.progress.total}; finishing calls in flight`,
          );
          break;
        case 'stopped':
          say(`apply: stopped (${event.code}): ${event.message}; later calls are skipped`);
          break;
        case 'verify':
          say(`apply: re-reading ${event.sites} site(s) to confirm the changes`);
          break;
        case 'verify-failed':
          say(`apply: the confirming re-read failed (${event.code}): ${event.message}`);
          break;
        default:
          break;
      }
    },
    finish() {
      if (liveLine) stream.write('\r\u001b[2K');
      liveLine = false;
    },
  };
}

/**
 * The time left, from the pace of calls (not actions: one call may carry one action or hundreds)
 * measured from the first call's end: the first calls go at once, before the rate limiter and
 * concurrency set the pace, so counting from the start would promise "ETA 0s" and then jump.
 * No estimate until two calls have ended.
 */
function callPace() {
  let calls = 0;
  let done = 0;
  let firstDoneAt = 0;
  return {
    start(total: number) {
      calls = total;
      done = 0;
    },
    callDone(now: number) {
      done++;
      if (done === 1) firstDoneAt = now;
    },
    etaMs(now: number): number | undefined {
      if (done < 2 || done >= calls) return undefined;
      return ((now - firstDoneAt) / (done - 1)) * (calls - done);
    },
  };
}

export function formatProgress(progress: ApplyProgress, etaMs: number | undefined): string {
  const percent = progress.total === 0 ? 100 : Math.floor((progress.settled / progress.total) * 100);
  const remaining = progress.total - progress.settled;
  const eta = etaMs !== undefined && remaining > 0 ? `, ETA ${formatDuration(etaMs)}` : '';
  return `apply: ${progress.settled}/${progress.total} actions (${percent}%), ${progress.failed} failed${eta}`;
}

export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
