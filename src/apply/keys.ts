import type { Action } from '../types.js';

/**
 * Identity of an action across two plans (the reviewed-subset flow and resume): what is done
 * where, not why. `reason`, `risk` and `wave` are deliberately not part of it.
 */
export function reviewKey(action: Action): string {
  return JSON.stringify([action.op, action.site_id, action.kind, action.slug, action.to ?? null]);
}

/**
 * Identity of one concrete change, including the version it starts from: once an update from
 * `from` is done it can never be needed again, so a journal entry with this key is final.
 */
export function changeKey(action: Action): string {
  return JSON.stringify([
    action.op,
    action.site_id,
    action.kind,
    action.slug,
    action.from ?? null,
    action.to ?? null,
  ]);
}
