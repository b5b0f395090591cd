import type { ApplyEvent, ApplyProgress } from '../index.js';
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
  /**
   * The client's calls per minute (0: none). The limiter lets a burst through at the start, so
   * the pace measured then is capped at it.
   */
  rateLimit?: number;
  /**
   * Runs `tick` every `ms` until the returned function is called (default: an unref'd
   * setInterval). Without a terminal a line is written every interval even when no call ends
   * (a long call, a re-read), so a CI log shows the run is alive.
   */
  every?: (ms: number, tick: () => void) => () => void;
  /** `--quiet`: no progress lines; the notable events still get theirs. */
  quiet?: boolean;
}

export interface ProgressReporter {
  onEvent(event: ApplyEvent): void;
  /** Progress of a re-read of the touched sites (before writing, or to confirm after). */
  onReread(what: 'before' | 'after', progress: { done: number; total: number | undefined }): void;
  /** Clears the live line and stops the periodic lines (call before printing the report). */
  finish(): void;
}

/** The lines of a progress reporter: a live line on a terminal, sparse plain lines otherwise. */
function progressLines(stream: OutputStream, options: ProgressOptions) {
  const tty = stream.isTTY === true;
  const interval = tty ? (options.ttyIntervalMs ?? 100) : (options.plainIntervalMs ?? 10_000);
  let lastShown = Number.NEGATIVE_INFINITY;
  let liveLine = false;
  /** The line the periodic tick repeats: the latest state, whatever phase the run is in. */
  let current: (() => string) | undefined;
  let stopTicking: (() => void) | undefined;
  const every =
    options.every ??
    ((ms: number, tick: () => void) => {
      const timer = setInterval(tick, ms);
      timer.unref();
      return () => clearInterval(timer);
    });
  const show = (text: string) => {
    if (options.quiet) return;
    if (tty) {
      stream.write(`\r\u001b[2K${text}`);
      liveLine = true;
    } else {
      stream.write(`${text}\n`);
    }
  };
  const lines = {
    tty,
    show,
    /** A line of its own, clearing the live line first. */
    say(text: string) {
      if (liveLine) stream.write('\r\u001b[2K');
      liveLine = false;
      stream.write(`${text}\n`);
    },
    /** Without a terminal, the latest line again every interval even when nothing ends. */
    startTicking() {
      if (tty || stopTicking || interval <= 0 || options.quiet) return;
      stopTicking = every(interval, () => {
        const now = options.clock();
        if (current && now - lastShown >= interval) {
          lastShown = now;
          show(current());
        }
      });
    },
    /** The latest state's line: shown now when forced or an interval has passed. */
    update(line: () => string, force = false) {
      current = line;
      const now = options.clock();
      if (!force && now - lastShown < interval) return;
      lastShown = now;
      show(current());
    },
    setCurrent(line: () => string) {
      current = line;
    },
    markShown() {
      lastShown = options.clock();
    },
    finish() {
      stopTicking?.();
      stopTicking = undefined;
      if (liveLine) stream.write('\r\u001b[2K');
      liveLine = false;
    },
  };
  return lines;
}

export function createProgress(stream: OutputStream, options: ProgressOptions): ProgressReporter {
  const pace = callPace(options.rateLimit ?? 0);
  const lines = progressLines(stream, options);
  /** A step with a count of its own (a re-read, a health check): shown at most every interval. */
  const step = (line: () => string, force = false) => {
    lines.setCurrent(line);
    lines.startTicking();
    lines.update(line, force);
  };
  const reread: ProgressReporter['onReread'] = (what, progress) => {
    const pages =
      progress.total === undefined ? `${progress.done} page(s)` : `${progress.done}/${progress.total} pages`;
    step(
      () =>
        `apply: re-reading the touched sites ${what === 'before' ? 'before writing' : 'to confirm the changes'}: ${pages}`,
    );
  };
  const health = healthPace();

  return {
    onEvent(event) {
      switch (event.type) {
        case 'start':
          pace.start(event.calls);
          lines.say(`apply: ${event.actions} action(s) in ${event.calls} call(s)`);
          lines.setCurrent(() => `apply: 0/${event.actions} actions (0%), 0 failed`);
          lines.startTicking();
          break;
        case 'call-done': {
          pace.callDone(options.clock());
          const { progress } = event;
          lines.update(
            () => formatProgress(progress, pace.etaMs(options.clock())),
            progress.settled === progress.total,
          );
          break;
        }
        case 'job':
          if (lines.tty)
            lines.show(`apply: queued job ${event.jobId}: ${event.processed}/${event.total} sites`);
          break;
        case 'verify':
          lines.say(`apply: re-reading ${event.sites} site(s) to confirm the changes`);
          lines.markShown();
          break;
        case 'verify-progress':
          reread('after', event);
          break;
        case 'recheck-progress':
          reread('before', event);
          break;
        case 'health-progress':
          step(
            () => healthLine(event, health.etaMs(event, options.clock())),
            event.done === event.total && event.total >= 100,
          );
          break;
        default: {
          const line = notableLine(event);
          if (line !== undefined) lines.say(line);
        }
      }
    },
    onReread: reread,
    finish: () => lines.finish(),
  };
}

/** The line of an event that always gets its own (a stopped wave, an interruption, a failed re-read). */
function notableLine(event: ApplyEvent): string | undefined {
  switch (event.type) {
    case 'wave-stopped':
      return `apply: wave ${event.wave ?? '(default)'} stopped: ${event.failed} failed update(s), more than ${event.maxFailures} allowed; later calls are skipped`;
    case 'interrupted':
      return `apply: interrupted after ${event.progress.settled}/${event.progress.total}; finishing calls in flight`;
    case 'stopped':
      return `apply: stopped (${event.code}): ${event.message}; later calls are skipped`;
    case 'health':
      return `apply: wave ${event.report.wave ?? '(default)'}: ${event.report.checked} updated site(s) checked, ${event.report.unhealthy.length} unhealthy${event.report.stopped ? `, more than ${event.report.max_unhealthy}: later waves do not start` : ''}`;
    case 'verify-failed':
      return `apply: the confirming re-read failed (${event.code}): ${event.message}`;
    default:
      return undefined;
  }
}

/** A health step's count line: before (response times) or after (the checks) a wave. */
function healthLine(
  event: Extract<ApplyEvent, { type: 'health-progress' }>,
  eta: number | undefined,
): string {
  const wave = event.wave ?? '(default)';
  const what = event.stage === 'before' ? 'reading response times before' : 'checking the health after';
  const percent = Math.floor((event.done / event.total) * 100);
  return `apply: ${what} wave ${wave}: ${event.done}/${event.total} sites (${percent}%)${eta === undefined ? '' : `, ETA ${formatDuration(eta)}`}`;
}

/**
 * The time left for the calls, from their recent pace (not actions: one call may carry one action
 * or hundreds). The pace is measured over the last completions (a twentieth of the calls, at
 * least 5, and at least a minute's worth of the rate limit), so a run whose pace changes is
 * judged by what it does now. No estimate until two calls have ended.
 *
 * Behind a rate limit R a minute the client's sliding-window limiter lets a call start only a
 * minute after the call R places before it, so calls go in bursts a minute apart, and a pace
 * cannot say when the next burst comes. Then the finish is taken from the limiter itself: taking
 * the ends of the last R calls for their starts, future call k starts at the latest of now and a
 * minute after call k − R, which gives the last call's start in closed form; and never earlier
 * than the calls' own pace between their ends allows (a slow dashboard, not the limiter, may be
 * what binds). The limiter also counts the reads, which the calls do not see: the finish can be
 * early by up to one minute.
 */
function callPace(rateLimit: number) {
  let calls = 0;
  const ends: number[] = [];
  return {
    start(total: number) {
      calls = total;
      ends.length = 0;
    },
    callDone(now: number) {
      ends.push(now);
    },
    etaMs(now: number): number | undefined {
      const done = ends.length;
      if (done < 2 || done >= calls) return undefined;
      const left = calls - done;
      const window = Math.min(done, Math.max(5, Math.ceil(calls / 20), rateLimit));
      const first = ends[done - window]!;
      if (rateLimit <= 0) {
        const span = Math.max(now, ends[done - 1]!) - first;
        const perMs = span > 0 ? (window - 1) / span : Number.POSITIVE_INFINITY;
        if (!Number.isFinite(perMs) || perMs <= 0) return undefined;
        return left / perMs;
      }
      // The last call is k = left − 1 places on; it starts a whole number of minutes after the
      // call (left − 1) mod R places on, which waits for the call R places before that one.
      const j = (left - 1) % rateLimit;
      const before = done + j - rateLimit;
      const firstStart = before >= 0 ? Math.max(now, ends[before]! + 60_000) : now;
      const limiterMs = firstStart + 60_000 * Math.floor((left - 1) / rateLimit) - now;
      const served = ends[done - 1]! - first;
      const paceMs = served > 0 ? (left * served) / (window - 1) : 0;
      return Math.max(limiterMs, paceMs);
    },
  };
}

/**
 * Time left of a health check, from its pace since it started: one call per site, all alike, so
 * the average since the start is a fair guess. No estimate before two sites were answered.
 */
function healthPace() {
  let key = '';
  let started = 0;
  return {
    etaMs(event: { wave: string | undefined; stage: string; done: number; total: number }, now: number) {
      const current = `${event.stage}:${event.wave ?? ''}`;
      if (current !== key || event.done <= 1) {
        key = current;
        started = now;
        return undefined;
      }
      const elapsed = now - started;
      if (elapsed <= 0 || event.done >= event.total) return undefined;
      return ((event.total - event.done) / (event.done - 1)) * elapsed;
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
