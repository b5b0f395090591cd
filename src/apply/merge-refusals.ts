import { isSvcError } from '../errors.js';
import type { Plan } from '../types.js';
import { checkSafeMode } from './guard.js';

/**
 * Why the apply after the merge would refuse this plan, judged by the same checks apply makes,
 * so the reviewer sees it before merging: safe mode with high-risk actions, and a halted
 * rollout (the waves after the unhealthy one stay held). Codes with data; front ends word them.
 */
export interface MergeRefusal {
  code: 'SAFE_MODE_BLOCKED' | 'ROLLOUT_HALTED';
  message: string;
  details?: Record<string, unknown>;
}

export function refusalsAtMerge(plan: Plan, settings: { safeMode: boolean }): MergeRefusal[] {
  const refusals: MergeRefusal[] = [];
  try {
    checkSafeMode(plan.actions, settings.safeMode);
  } catch (error) {
    if (!isSvcError(error)) throw error;
    refusals.push({
      code: 'SAFE_MODE_BLOCKED',
      message: error.message,
      ...(error.details ? { details: { ...error.details } } : {}),
    });
  }
  const halt = plan.rollout_halt;
  if (halt) {
    refusals.push({
      code: 'ROLLOUT_HALTED',
      message: `wave ${halt.wave} has ${halt.unhealthy.length} unhealthy site(s) since ${halt.since}: the waves after it are held`,
      details: { wave: halt.wave, unhealthy: halt.unhealthy.length, since: halt.since },
    });
  }
  return refusals;
}
