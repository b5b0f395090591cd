import type * as nodeFs from 'node:fs';
import type { Plan } from '../types.js';
import type { ActionsRun } from './actions-env.js';
import { appendOutputs } from './outputs.js';
import { appendStepSummary, type SummaryWrite } from './step-summary.js';

/**
 * What a command hands to the workflow run: markdown for the step summary and values for the
 * step outputs. Each goes only where the runner asked for it (GITHUB_STEP_SUMMARY, GITHUB_OUTPUT);
 * outside Actions nothing is written.
 */
export function publishToRun(
  fs: Pick<typeof nodeFs, 'appendFileSync' | 'statSync'>,
  run: ActionsRun,
  content: { summary?: string; outputs?: Record<string, string | number | boolean> },
): { summary?: SummaryWrite } {
  const result: { summary?: SummaryWrite } = {};
  if (run.stepSummaryPath && content.summary !== undefined) {
    result.summary = appendStepSummary(fs, run.stepSummaryPath, content.summary);
  }
  if (run.outputPath && content.outputs) appendOutputs(fs, run.outputPath, content.outputs);
  return result;
}

/** The action's documented outputs for a plan: plan-id, counts (JSON), has-changes. */
export function planOutputs(plan: Plan): Record<string, string> {
  return {
    'plan-id': plan.id,
    counts: JSON.stringify(plan.summary),
    'has-changes': String(plan.actions.length > 0),
  };
}
