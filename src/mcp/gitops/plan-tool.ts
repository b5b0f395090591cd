import { haltText, renderPlanMarkdown, safeText } from '../../render/index.js';
import type { RolloutHalt } from '../../types.js';
import type { CallContext, ComposedOutcome, ToolDef } from '../tool-result.js';
import type { Planned } from './engine.js';
import { type GitopsToolOptions, MARKDOWN_CAP } from './tool-options.js';

/**
 * `<p>_plan`: the dry-run preview. Every call first revokes the apply token of any earlier plan:
 * at most one is outstanding, the one of the plan last shown. A client that can ask its user
 * (elicitation) gets no token at all: `<p>_apply` names the plan and the server asks the user.
 */
export function planTool(options: GitopsToolOptions): ToolDef {
  const applyTool = `${options.prefix}_apply`;
  return {
    name: `${options.prefix}_plan`,
    title: 'Plan',
    description: `Reads the dashboard and plans the desired state: the dry-run preview. Returns plan_id, the roll-up and the plan as markdown; show the markdown to the user. When there is something to apply: if this client can ask its user (MCP elicitation), ${applyTool} with plan_id asks the user itself; otherwise a confirmation_token for ${applyTool} with this plan_id (valid 5 minutes, single use; a later ${options.prefix}_plan revokes it).`,
    inputSchema: {
      type: 'object',
      properties: {
        config: {
          type: 'string',
          maxLength: 1000,
          description: 'desired-state file or directory inside the working directory',
        },
        target: {
          type: 'array',
          items: { type: 'string', maxLength: 500 },
          maxItems: 1000,
          description: 'only these sites: IDs, domains or domain globs',
        },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false },
    destructive: false,
    async run(args, signal, context?: CallContext) {
      options.tokens.revoke(applyTool);
      const planned = await options.engine().plan(
        {
          ...(typeof args.config === 'string' ? { config: args.config } : {}),
          ...(Array.isArray(args.target) ? { targets: args.target as string[] } : {}),
        },
        signal,
      );
      options.plans.add(planned);
      return planOutcome(options, planned, context?.askUser !== undefined);
    },
  };
}

/** The plan's result: the roll-up, how to apply it (or why it cannot be), the markdown. */
function planOutcome(options: GitopsToolOptions, planned: Planned, asksUser: boolean): ComposedOutcome {
  const applyTool = `${options.prefix}_apply`;
  const { plan } = planned;
  const changes = plan.actions.length > 0;
  const strictBlocked = planned.refusals.some((refusal) => refusal.code === 'UNKNOWN_NAMES');
  const unknown = planned.unknown.filter((name) => !name.unchecked);
  const safeModeBlocked = options.safeMode && plan.summary.high_risk > 0;
  const issued =
    changes && !asksUser && !strictBlocked ? options.tokens.issue(applyTool, plan.id, plan.id) : undefined;
  const markdown = renderPlanMarkdown(plan, { live: planned.live, maxChars: MARKDOWN_CAP });
  const next = !changes
    ? 'nothing_to_apply'
    : strictBlocked
      ? 'fix_unknown_names'
      : safeModeBlocked
        ? 'blocked_by_safe_mode'
        : asksUser
          ? 'apply_asks_user'
          : 'show_plan_and_confirm';
  const howTo = !changes
    ? 'Nothing to apply.'
    : strictBlocked
      ? `Strict is on: the desired state names ${unknown.length} site(s) or slug(s) the dashboard does not know; ${applyTool} refuses this plan. Correct them and plan again.`
      : asksUser
        ? `To apply: call ${applyTool} with plan_id ${plan.id}. The tool server then asks the user itself, with its own summary of this plan, and applies only if they accept.`
        : `To apply: show this plan to the user; after explicit approval call ${applyTool} with plan_id ${plan.id}, confirmation_token ${issued?.token} and user_confirmed: true (valid until ${issued?.expiresAt.toISOString()}; a later ${options.prefix}_plan revokes it).`;
  const names = planned.unknown.map((name) => {
    const level = name.unchecked ? 'note' : planned.strict ? 'error' : 'warning';
    return `${level}: ${safeText(name.message, 1000)}${name.suggestion ? ` (did you mean ${safeText(name.suggestion)}?)` : ''}\n`;
  });
  const safeNote = safeModeBlocked
    ? ' Safe mode is on and the plan holds high-risk actions: apply will refuse it (SAFE_MODE_BLOCKED).'
    : '';
  const outcome: ComposedOutcome = {
    structured: {
      plan_id: plan.id,
      has_changes: changes,
      summary: plan.summary,
      needs_approval: plan.needs_approval,
      plan_expires_at: plan.expires_at,
      confirmation: asksUser ? 'elicitation' : 'token',
      ...(issued ? { confirmation_token: issued.token, expires_at: issued.expiresAt.toISOString() } : {}),
      safe_mode_blocked: safeModeBlocked,
      ...(planned.unknown.length > 0 ? { unknown_names: planned.unknown.map(unknownName) } : {}),
      ...(strictBlocked ? { strict_blocked: true } : {}),
      next_action: next,
      markdown,
    },
    text: `${refusalLines(options, planned)}${markdown}\n${names.join('')}${howTo}${changes && !strictBlocked ? safeNote : ''}\n`,
    ...(strictBlocked ? { isError: true } : {}),
  };
  return withHalt(plan.rollout_halt, outcome);
}

/**
 * What apply would refuse or leave out, first, before the plan: the session's list (the halt has
 * its own first line, see withHalt), so the user sees it before any confirmation.
 */
function refusalLines(options: GitopsToolOptions, planned: Planned): string {
  const applyTool = `${options.prefix}_apply`;
  const lines = planned.refusals
    .filter((refusal) => refusal.code !== 'ROLLOUT_HALTED')
    .map((refusal) => {
      const what = refusal.code === 'GATE_CLOSED' ? 'Not applied now' : `${applyTool} would refuse this plan`;
      return `${what} (${refusal.code}): ${safeText(refusal.message, 1000)}\n`;
    });
  return lines.length === 0 ? '' : `${lines.join('')}\n`;
}

function unknownName(name: Planned['unknown'][number]) {
  return {
    message: safeText(name.message, 1000),
    ...(name.suggestion === undefined ? {} : { suggestion: safeText(name.suggestion) }),
    ...(name.unchecked ? { unchecked: true } : {}),
  };
}

/**
 * A plan made while the rollout is held (a wave's unhealthy sites are still unhealthy) is an
 * error result that says so: `stopped` and the hold as `health`, as the CLI exits non-zero.
 */
export function withHalt(halt: RolloutHalt | undefined, outcome: ComposedOutcome): ComposedOutcome {
  if (!halt) return outcome;
  const line = haltText(halt);
  return {
    structured: { ...outcome.structured, stopped: true, health: halt },
    text: `${line}\n\n${outcome.text ?? ''}`,
    isError: true,
  };
}
