import {
  type Approval,
  type ApproveRequest,
  EXIT,
  refusalError,
  renderPlanText,
  type Session,
  SvcError,
} from '../../index.js';
import { type CliContext, useColour } from '../context.js';

/**
 * The approval of `svc-gitops apply`, as the CLI asks for it: the flags become the session's
 * approval request (src/engine/session-approve.ts decides), the plan made now is shown before the
 * prompt, and the decision becomes an approved run, a thrown refusal or an exit code. None
 * sends a write.
 */

export interface ApplyFlags {
  config?: string;
  autoApprove?: boolean;
  reviewed?: string;
  resume?: boolean;
  target?: string[];
  dryRun?: boolean;
  format: string;
  out?: string;
  stateDir?: string;
  overrideHealth?: boolean;
  quiet?: boolean;
}

/** Flags that contradict each other are refused before anything is read or sent. */
export function checkApprovalFlags(planfile: string | undefined, flags: ApplyFlags): void {
  const conflict = (message: string) =>
    new SvcError('CONFLICTING_PARAMETERS', message, {
      hint: 'run `svc-gitops apply --help` for the approval paths',
    });
  const saved = planfile !== undefined;
  const reviewed = flags.reviewed !== undefined;
  if (flags.autoApprove && flags.dryRun) throw conflict('--auto-approve and --dry-run contradict each other');
  if (saved && reviewed) throw conflict('give either a saved PLANFILE or --reviewed PLANFILE, not both');
  if (flags.resume && (saved || reviewed)) throw conflict('--resume plans again; it takes no plan file');
  if (flags.target !== undefined && (saved || reviewed || flags.resume)) {
    throw conflict(
      '--target only narrows a plan made now; a saved, reviewed or resumed plan keeps its own scope',
    );
  }
}

export type ApprovedRun = Extract<Approval, { kind: 'approved' }>;
export type NothingToApply = Extract<Approval, { kind: 'nothing-to-apply' }>;

/** The approval path the arguments choose. */
export function approvalRequest(
  ctx: CliContext,
  planfile: string | undefined,
  flags: ApplyFlags,
  stateDir: string,
): ApproveRequest {
  const plan = { config: flags.config, overrideHealth: flags.overrideHealth };
  if (planfile) return { path: 'saved', planFile: planfile, config: flags.config };
  if (flags.reviewed) return { path: 'reviewed', reviewedFile: flags.reviewed, plan };
  if (flags.resume) return { path: 'resume', stateDir, plan };
  const prompt = ctx.prompt;
  return {
    path: 'now',
    plan: { ...plan, targets: flags.target },
    autoApprove: flags.autoApprove === true,
    dryRun: flags.dryRun === true,
    show: ({ plan: made }) => {
      const preview = flags.format === 'text' ? ctx.stdout : ctx.stderr;
      preview.write(renderPlanText(made, { colour: useColour(ctx, preview) }));
    },
    ...(prompt === undefined
      ? {}
      : {
          confirm: async (made, dashboardUrl) =>
            (
              await prompt(
                `\nApply ${made.actions.length} action(s) to ${dashboardUrl}?\n  Only 'yes' will be accepted to approve.\n  Enter a value: `,
              )
            ).trim() === 'yes',
        }),
  };
}

/** The session's decision: an approved run or nothing to apply; a refusal is thrown, a "no" is exit 1. */
export async function approve(
  ctx: CliContext,
  session: Session,
  request: ApproveRequest,
): Promise<ApprovedRun | NothingToApply | number> {
  const decision = await session.approve(request);
  if (decision.kind === 'refused') throw refusalError(decision);
  if (decision.kind === 'cancelled') {
    ctx.stderr.write('svc-gitops: apply cancelled: nothing was changed\n');
    return EXIT.error;
  }
  return decision;
}
