import { SvcError } from '../errors.js';
import type { Plan } from '../types.js';
import { type ApprovalDecision, type ApprovalPath, deciding, type Planned } from './decision.js';
import { checkSafeMode } from './guard.js';
import { healthOf, waveLimits } from './wave-limits.js';

export interface PromptApprovalOptions {
  safeMode: boolean;
  /** The setting `requireUserConfirmation`: without it a plan that needs no person runs unasked. */
  requireUserConfirmation: boolean;
  /** `--auto-approve`: enough for a plan that needs no person's approval, never for one that does. */
  autoApprove?: boolean;
  /** Approves for showing the calls only (nothing will be sent), so nobody is asked. */
  dryRun?: boolean;
  /**
   * Asks the person whether to apply `plan`; true only for an explicit yes. Absent when nobody
   * can be asked (no terminal).
   */
  confirm?: (plan: Plan) => Promise<boolean>;
}

/**
 * The approval of a plan made now (`apply` without a plan file). A plan the approval rules mark
 * `needs_approval` needs a person (the prompt) or a saved/reviewed plan: `autoApprove` alone never
 * satisfies it. Safe mode refuses high-risk plans before anyone is asked.
 */
export function approvePrompt(planned: Planned, options: PromptApprovalOptions): Promise<ApprovalDecision> {
  const { plan } = planned;
  return deciding(async () => {
    if (plan.actions.length === 0) return { kind: 'nothing-to-apply' };
    checkSafeMode(plan.actions, options.safeMode);
    const approval = options.dryRun ? 'prompt' : await confirmation(plan, options);
    if (approval === undefined) return { kind: 'cancelled' };
    return {
      kind: 'approved',
      approval,
      plan,
      maxFailures: waveLimits(planned.desired),
      ...healthOf(planned.desired),
      capabilities: planned.live.capabilities,
      pending: planned.live.pending,
      warnings: [],
    };
  });
}

async function confirmation(plan: Plan, options: PromptApprovalOptions): Promise<ApprovalPath | undefined> {
  if (!plan.needs_approval && options.autoApprove) return 'auto-approve';
  if (!plan.needs_approval && !options.requireUserConfirmation) return 'no-confirmation';
  if (options.confirm) return (await options.confirm(plan)) ? 'prompt' : undefined;
  // No front end's words (flags, commands): the reason says which refusal it is; each front
  // end words it and its way out.
  if (plan.needs_approval) {
    throw new SvcError(
      'PREVIEW_REQUIRED',
      'this plan needs a person’s approval (see its needs-approval notes); an automatic approval is not enough',
      { details: { reason: 'needs-person' } },
    );
  }
  throw new SvcError('PREVIEW_REQUIRED', 'there is no terminal to confirm the plan at', {
    details: { reason: 'no-one-to-ask' },
  });
}
