import { type MergeRefusal as ApplyRefusal, refusalsAtMerge } from '../apply/index.js';
import type { Plan } from '../types.js';
import type { UnknownName } from './unknown-names.js';

/**
 * Why the apply after the merge would refuse a plan, or leave part of it unapplied: judged
 * before the merge so the reviewer sees it where they review (the PR comment, the step
 * summary, the check). Codes with data; each front end words its own fix.
 * - SAFE_MODE_BLOCKED, ROLLOUT_HALTED: apply's own checks (refusalsAtMerge).
 * - UNKNOWN_NAMES: under strict, names the dashboard does not know (a typo plans nothing).
 * - GATE_CLOSED: updates the plan shows waiting for a window, a soak time or an earlier wave;
 *   an apply now does not send them (the notes say when each gate opens).
 */
export type ReviewRefusalCode = ApplyRefusal['code'] | 'UNKNOWN_NAMES' | 'GATE_CLOSED';

export interface ReviewRefusal {
  code: ReviewRefusalCode;
  message: string;
  details?: Record<string, unknown>;
}

/** Waiting notes named in a GATE_CLOSED message; the rest are counted. */
const NAMED = 3;

export function refusalsBeforeMerge(
  plan: Plan,
  settings: { safeMode: boolean; strict: boolean },
  unknown: readonly UnknownName[] = [],
): ReviewRefusal[] {
  const refusals: ReviewRefusal[] = refusalsAtMerge(plan, settings);
  const names = unknown.filter((name) => !name.unchecked);
  if (settings.strict && names.length > 0) {
    const shown = names
      .slice(0, NAMED)
      .map(
        (name) =>
          `${name.message}${name.suggestion === undefined ? '' : ` (did you mean ${name.suggestion}?)`}`,
      );
    refusals.push({
      code: 'UNKNOWN_NAMES',
      message: `strict: the desired state names ${names.length} site(s) or slug(s) the dashboard does not know: ${shown.join('; ')}${names.length > NAMED ? `; and ${names.length - NAMED} more` : ''}`,
      details: {
        names: names.map((name) => ({
          message: name.message,
          ...(name.suggestion === undefined ? {} : { suggestion: name.suggestion }),
        })),
      },
    });
  }
  const waiting = plan.notes.filter((note) => note.kind === 'waiting');
  if (waiting.length > 0) {
    const sites = new Set(waiting.flatMap((note) => note.site_ids ?? [])).size;
    const shown = waiting.slice(0, NAMED).map((note) => note.message);
    refusals.push({
      code: 'GATE_CLOSED',
      message: `updates on ${sites} site(s) wait for a gate and are not applied now: ${shown.join('; ')}${waiting.length > NAMED ? `; and ${waiting.length - NAMED} more` : ''}`,
      details: { waiting: waiting.length, sites },
    });
  }
  return refusals;
}
