import type { SessionPlan as Planned } from '../../index.js';
import { type ApplyReport, renderApplyCalls, shortId } from '../../render/index.js';
import type { AskUser, CallContext, ComposedOutcome, ToolDef, ToolOutcome } from '../tool-result.js';
import { toolError, toolOk } from '../tool-result.js';
import { appliedOutcome, type ConfirmedBy } from './apply-result.js';
import { askToApply } from './ask-user.js';
import { withHalt } from './plan-tool.js';
import { applyThrough, approveThrough, callsThrough } from './sessions.js';
import type { GitopsToolOptions } from './tool-options.js';

/** The arguments of one apply call, read once. */
interface ApplyCall {
  tool: string;
  planId?: string;
  token?: string;
  userConfirmed: boolean;
  dryRun: boolean;
}

/**
 * `<p>_apply`: applies exactly one plan of this session, the one `plan_id` names. A client that
 * can ask its user (elicitation) gets the server's own question; any other confirms with the one
 * outstanding token of that plan and `user_confirmed`. See docs/mcp.md, "Confirming an apply".
 */
export function applyTool(options: GitopsToolOptions): ToolDef {
  const name = `${options.prefix}_apply`;
  return {
    name,
    title: 'Apply a plan',
    description: `Applies exactly the plan a ${options.prefix}_plan call made, named by plan_id. If this client can ask its user (MCP elicitation), the tool server shows the user its own summary of that plan and applies only on their accept; otherwise give the plan's confirmation_token and user_confirmed: true once the user approved it. Refused when the plan expired, was used, or the touched sites changed since (plan again). dry_run: true lists the calls it would send, sending nothing.`,
    inputSchema: {
      type: 'object',
      properties: {
        plan_id: {
          type: 'string',
          maxLength: 100,
          description: `the plan_id of the ${options.prefix}_plan to apply`,
        },
        confirmation_token: { type: 'string', maxLength: 200 },
        user_confirmed: {
          type: 'boolean',
          description: 'true only after the user explicitly approved the plan',
        },
        dry_run: { type: 'boolean', description: 'list the calls apply would send; sends nothing' },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    // Safe mode judges the plan (its high-risk actions), as the CLI does: see the engine's apply.
    destructive: false,
    run: (args, signal, context?: CallContext) => {
      const call: ApplyCall = {
        tool: name,
        ...(typeof args.plan_id === 'string' ? { planId: args.plan_id } : {}),
        ...(typeof args.confirmation_token === 'string' && args.confirmation_token !== ''
          ? { token: args.confirmation_token }
          : {}),
        userConfirmed: args.user_confirmed === true,
        dryRun: args.dry_run === true,
      };
      return apply(options, call, signal, context?.askUser);
    },
  };
}

async function apply(
  options: GitopsToolOptions,
  call: ApplyCall,
  signal: AbortSignal,
  askUser: AskUser | undefined,
): Promise<ToolOutcome> {
  const { tool } = call;
  if (call.userConfirmed && call.dryRun) {
    return toolError('CONFLICTING_PARAMETERS', 'user_confirmed and dry_run cannot both be true', {
      tool,
      reason: 'a call either lists the calls (dry_run) or applies (user_confirmed)',
      resolution: 'call with dry_run: true to see the calls, then with user_confirmed: true to apply',
    });
  }
  if (call.dryRun) return dryRun(options, call);
  return askUser ? applyAsked(options, call, askUser, signal) : applyWithToken(options, call, signal);
}

/** The calls apply would send for the plan named (by plan_id, or the token's plan); sends nothing. */
async function dryRun(options: GitopsToolOptions, call: ApplyCall): Promise<ToolOutcome> {
  const ofToken = call.token === undefined ? undefined : options.tokens.peek(call.token, call.tool);
  if (call.planId !== undefined && ofToken !== undefined && ofToken !== call.planId)
    return notThisPlan(options, call.tool, call.planId);
  const id = call.planId ?? ofToken;
  const planned = typeof id === 'string' ? options.plans.get(id) : undefined;
  if (!planned) return noPlan(options, call.tool, call.planId);
  const sessions = options.sessions();
  const approval = await approveThrough(sessions, planned, true);
  const calls =
    approval.kind === 'approved'
      ? renderApplyCalls(await callsThrough(sessions, approval), approval.dashboardUrl)
      : renderApplyCalls([], approval.report.dashboard);
  return toolOk({ plan_id: planned.plan.id, dry_run: true, calls }, calls);
}

/**
 * With elicitation: the plan named is checked as apply would check it, then the user is asked
 * with the server's own summary of it; only their accept applies it. No token is involved, so no
 * token of another plan can be passed off as the user's yes.
 */
async function applyAsked(
  options: GitopsToolOptions,
  call: ApplyCall,
  askUser: AskUser,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  if (call.planId === undefined) return planIdRequired(options, call.tool);
  const planned = options.plans.get(call.planId);
  if (!planned) return noPlan(options, call.tool, call.planId);
  // Refusals (a preview, strict, safe mode, expiry, another dashboard) come before the user is
  // bothered; a plan without actions asks nothing.
  const checked = await approveThrough(options.sessions(), planned);
  if (checked.kind === 'nothing-to-apply') return nothingToApply(planned, checked.report);
  const verdict = await askToApply(askUser, planned, signal);
  if (!verdict.accepted) {
    const refused = toolError(
      'USER_DECLINED',
      `plan ${shortId(planned.plan.id)} was not confirmed by the user: nothing was applied`,
      {
        tool: call.tool,
        reason: verdict.reason,
        resolution: `ask the user what to change; ${options.prefix}_apply asks them again, ${options.prefix}_plan makes a new plan`,
      },
    );
    return {
      ...refused,
      structured: { ...refused.structured, plan_id: planned.plan.id, applied: false, answer: verdict.action },
    };
  }
  return applyHeld(options, planned, signal, 'user');
}

/**
 * Without elicitation: the token of the plan last made (a new plan revokes the older token) with
 * `user_confirmed` and the `plan_id` it confirms. A token of another plan is refused and kept.
 */
async function applyWithToken(
  options: GitopsToolOptions,
  call: ApplyCall,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  const { tool, token } = call;
  if (token === undefined) {
    return toolError('PREVIEW_REQUIRED', 'applying needs the confirmation_token of a plan', {
      tool,
      reason: 'no confirmation_token was given',
      resolution: `call ${options.prefix}_plan, show the plan to the user, then apply with its plan_id, its token and user_confirmed: true`,
    });
  }
  const ofToken = options.tokens.peek(token, tool);
  if (call.planId !== undefined && ofToken !== undefined && ofToken !== call.planId)
    return notThisPlan(options, tool, call.planId);
  if (!call.userConfirmed) {
    const planned = typeof ofToken === 'string' ? options.plans.get(ofToken) : undefined;
    if (!planned) return noPlan(options, tool, undefined);
    return toolOk({
      status: 'CONFIRMATION_REQUIRED',
      next_action: 'show_preview_and_confirm',
      message:
        'Show the plan to the user and apply only after explicit approval, with plan_id and user_confirmed: true.',
      plan_id: planned.plan.id,
      summary: planned.plan.summary,
      confirmation_token: token,
    });
  }
  if (call.planId === undefined) return planIdRequired(options, tool);
  const redeemed = options.tokens.redeem(token, tool, call.planId);
  if (!redeemed.ok) {
    return toolError(
      redeemed.code,
      redeemed.code === 'PREVIEW_EXPIRED' ? 'the preview expired' : 'no valid plan for this call',
      {
        tool,
        reason: redeemed.reason,
        resolution: `call ${options.prefix}_plan again and apply with its plan_id and new token`,
      },
    );
  }
  const planned = typeof redeemed.carried === 'string' ? options.plans.get(redeemed.carried) : undefined;
  if (!planned) return noPlan(options, tool, call.planId);
  return applyHeld(options, planned, signal, 'token');
}

/**
 * The session approves the plan again as it is applied (the user may have taken longer than the
 * plan's lifetime to answer), then runs it: lock, single use, live re-check, journal, rollout
 * records. What it returns is echoed: the plan, who confirmed it, the counts and the sites.
 */
async function applyHeld(
  options: GitopsToolOptions,
  planned: Planned,
  signal: AbortSignal,
  confirmedBy: ConfirmedBy,
): Promise<ToolOutcome> {
  const sessions = options.sessions();
  const approval = await approveThrough(sessions, planned);
  if (approval.kind === 'nothing-to-apply') return nothingToApply(planned, approval.report);
  const applied = await applyThrough(sessions, approval, signal);
  return appliedOutcome(planned, applied.report, confirmedBy, options.prefix);
}

function planIdRequired(options: GitopsToolOptions, tool: string): ComposedOutcome {
  return toolError('INVALID_PARAMETER', 'plan_id is required: name the plan to apply', {
    tool,
    reason: 'an apply confirms one plan, named by the plan_id its plan call returned',
    resolution: `call ${options.prefix}_plan, show the plan to the user, and pass its plan_id`,
  });
}

function notThisPlan(options: GitopsToolOptions, tool: string, planId: string): ComposedOutcome {
  return toolError('PREVIEW_REQUIRED', `the confirmation_token does not confirm plan ${planId}`, {
    tool,
    reason: 'a token confirms only the plan it came with',
    resolution: `apply the plan the user approved with that plan's own token, or call ${options.prefix}_plan again`,
  });
}

function noPlan(options: GitopsToolOptions, tool: string, planId: string | undefined): ComposedOutcome {
  return toolError(
    'PREVIEW_REQUIRED',
    planId === undefined ? 'no valid plan for this confirmation_token' : `no plan ${planId} in this session`,
    {
      tool,
      reason:
        planId === undefined
          ? 'the token is unknown, used, revoked by a later plan, or expired'
          : 'the session keeps its last three plans',
      resolution: `call ${options.prefix}_plan again`,
    },
  );
}

/** A plan without actions: nothing is asked or written (a halted rollout stays an error). */
function nothingToApply(planned: Planned, report: ApplyReport): ComposedOutcome {
  return withHalt(report.halt, {
    structured: {
      plan_id: planned.plan.id,
      applied: false,
      nothing_to_apply: true,
      summary: planned.plan.summary,
    },
    text: `Plan ${shortId(planned.plan.id)} has nothing to apply.`,
  });
}
