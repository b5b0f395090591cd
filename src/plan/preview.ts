/**
 * The rollout inputs of a preview (`plan --at`): the gates are judged at a later moment, from
 * what is known now. What the plan made now would record first (a wave seen done without a
 * record starts its `healthy_for` now, not at the preview's moment) is applied to the state, so
 * the preview never counts an unknown time from the later moment.
 */
import type { DesiredState, LiveState, PlanRollout } from '../types.js';
import { createPlan } from './create.js';
import { wavesDone } from './rollout-checks.js';
import { recordDoneWaves } from './rollout-state.js';

export function previewRollout(
  desired: DesiredState,
  live: LiveState,
  rollout: PlanRollout,
  now: Date,
  complete: boolean,
): PlanRollout {
  const plan = createPlan(desired, live, { now, lifetimeMinutes: 1, rollout });
  const done = wavesDone(desired, live, plan, complete);
  return { ...rollout, state: recordDoneWaves(rollout.state, done, now) };
}
