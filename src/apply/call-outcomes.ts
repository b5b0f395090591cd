import type { RunUpdatesResult } from '../dashboard/client.js';
import { type ErrorCode, isSvcError } from '../errors.js';
import type { Action, ActionOutcome } from '../types.js';

/**
 * Turns what one dashboard call answered into one outcome per action it carried. A call that
 * threw fails all its actions with the error's code; a run-updates result is matched per item,
 * and an item the dashboard neither updated nor reported is a failure (`NOT_REPORTED`), never
 * silently counted as done (verify may still find that it took effect).
 */

export function outcomesOfError(actions: Action[], error: unknown): ActionOutcome[] {
  const code: ErrorCode = isSvcError(error) ? error.code : 'INTERNAL';
  const message = error instanceof Error ? error.message : String(error);
  return actions.map((action) => ({ action, status: 'failed', code, message }));
}

export function outcomesOfIgnore(actions: Action[]): ActionOutcome[] {
  return actions.map((action) => ({ action, status: 'done' }));
}

const SKIP_REASONS: Record<string, string> = {
  ignored_site: 'a per-site ignore holds it',
  ignored_global: 'a global ignore holds it',
  ignored_site_flag: "the site's flag ignoring every update of its kind holds it",
};

export function outcomesOfRunUpdates(actions: Action[], result: RunUpdatesResult): ActionOutcome[] {
  const updated = new Set(result.updated.map((item) => `${item.siteId}|${item.kind}|${item.slug}`));
  return actions.map((action): ActionOutcome => {
    if (updated.has(`${action.site_id}|${action.kind}|${action.slug}`)) return { action, status: 'done' };
    const skipped = result.skipped?.find(
      (s) => s.siteId === action.site_id && s.kind === action.kind && s.slug === action.slug,
    );
    if (skipped) {
      return {
        action,
        status: 'failed',
        code: 'SKIPPED',
        message: `the dashboard skipped it: ${SKIP_REASONS[skipped.reason] ?? skipped.reason}`,
      };
    }
    const error =
      result.errors.find(
        (e) =>
          e.siteId === action.site_id && e.slug === action.slug && (e.kind ?? action.kind) === action.kind,
      ) ?? result.errors.find((e) => e.siteId === action.site_id && (e.slug === undefined || e.slug === ''));
    if (error) return { action, status: 'failed', code: error.code, message: error.message };
    return {
      action,
      status: 'failed',
      code: 'NOT_REPORTED',
      message: 'the dashboard reported neither an update nor an error for this item',
    };
  });
}
