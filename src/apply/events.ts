import type { ActionOutcome, ApplyResult, WaveHealth } from '../types.js';
import type { ApplyCall } from './batch.js';

/**
 * What apply reports while it runs. Apply never prints: the CLI turns these into a progress
 * line, tests collect them. Counts are of actions, not calls.
 */
export type ApplyEvent =
  | { type: 'start'; actions: number; calls: number }
  | { type: 'call-start'; call: ApplyCall }
  | {
      type: 'call-done';
      call: ApplyCall;
      outcomes: ActionOutcome[];
      progress: ApplyProgress;
    }
  | { type: 'job'; jobId: string; processed: number; total: number }
  | { type: 'wave-stopped'; wave: string | undefined; failed: number; maxFailures: number }
  | { type: 'interrupted'; progress: ApplyProgress }
  /** The health check after an update wave (`report.stopped`: later waves do not start). */
  | { type: 'health'; report: WaveHealth }
  /** Sites of a wave's health check answered so far (`before`: the reading compared with). */
  | {
      type: 'health-progress';
      wave: string | undefined;
      stage: 'before' | 'after';
      done: number;
      total: number;
    }
  /**
   * A failure no later call can get past (AUTH_FAILED, FORBIDDEN, RESOURCE_EXHAUSTED), or a
   * dashboard that cannot be reached at all (DASHBOARD_UNREACHABLE): no new call starts.
   */
  | { type: 'stopped'; code: string; message: string }
  | { type: 'verify'; sites: number }
  /** Pages of a saved plan's re-check of its touched sites read so far (`total` once known). */
  | { type: 'recheck-progress'; done: number; total: number | undefined }
  /** Pages of the confirming re-read read so far (`total` once known). */
  | { type: 'verify-progress'; done: number; total: number | undefined }
  | { type: 'verify-failed'; code: string; message: string }
  /**
   * No confirming re-read is made (`code`: INTERRUPTED, DASHBOARD_UNREACHABLE): outcomes
   * reported done are unverified. `message` says why.
   */
  | { type: 'verify-skipped'; code: string; message: string }
  | { type: 'finished'; result: ApplyResult };

export interface ApplyProgress {
  /** Actions with a final outcome so far (done, failed, skipped or blocked). */
  settled: number;
  failed: number;
  total: number;
}
