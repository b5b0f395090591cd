import type { SessionPlan as Planned } from '../../index.js';
import { haltText, renderPlanMarkdown, safeText } from '../../render/index.js';
import type { RolloutHalt } from '../../types.js';
import { type CallContext, type ComposedOutcome, type ToolDef, toolError } from '../tool-result.js';
import { planThrough } from './sessions.js';
import { type GitopsToolOptions, MARKDOWN_CAP } from './tool-options.js';

/**
 * `<p>_plan`: the dry-run preview. Every call first revokes the apply token of any earlier plan:
 * at most one is outstanding, the one of the plan last shown. A client that can ask its user
 * (elicitation) gets no token at all: `<p>_apply` names the plan and the server asks the user.
 */
export function planTool(options: GitopsToolOptions): ToolDef {
  const applyTool = `${options.prefix}_apply`;
  const name = `${options.prefix}_plan`;
  return {
    name,
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
        at: {
          type: 'string',
          maxLength: 100,
          description:
            'a preview clock: an ISO time (2026-12-01T09:00:00Z) at which to judge the gates (windows, soak, healthy_for), from what is known now; nothing is recorded and the plan cannot be applied',
        },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false },
    destructive: false,
    async run(args, signal, context?: CallContext) {
      const at = typeof args.at === 'string' ? previewTime(args.at, name, options.now()) : undefined;
      if (at !== undefined && !(at instanceof Date)) return at;
      options.tokens.revoke(applyTool);
      const planned = await planThrough(
        options.sessions(),
        {
          ...(typeof args.config === 'string' ? { config: args.config } : {}),
          ...(Array.isArray(args.target) ? { targets: args.target as string[] } : {}),
          ...(at ? { at } : {}),
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
  const preview = planned.at?.toISOString();
  const unknown = planned.unknown.filter((name) => !name.unchecked);
  const safeModeBlocked = options.safeMode && plan.summary.high_risk > 0;
  const issued =
    changes && !asksUser && !strictBlocked && preview === undefined
      ? options.tokens.issue(applyTool, plan.id, plan.id)
      : undefined;
  const markdown = renderPlanMarkdown(plan, { live: planned.live, maxChars: MARKDOWN_CAP });
  const next = !changes
    ? 'nothing_to_apply'
    : preview
      ? 'preview_only'
      : strictBlocked
        ? 'fix_unknown_names'
        : safeModeBlocked
          ? 'blocked_by_safe_mode'
          : asksUser
            ? 'apply_asks_user'
            : 'show_plan_and_confirm';
  const howTo = !changes
    ? 'Nothing to apply.'
    : preview
      ? `A preview of the gates at ${preview}: it cannot be applied. To apply, call ${options.prefix}_plan without at.`
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
      ...(preview ? { at: preview, preview: true } : {}),
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
 * `at`: an ISO time with its zone (Z or ±hh:mm), not before now (a preview looks ahead), else
 * the refusal that says what it takes.
 */
function previewTime(text: string, tool: string, now: Date): Date | ComposedOutcome {
  const at = new Date(text);
  if (!/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d\d:?\d\d)$/i.test(text.trim()) || !Number.isFinite(at.getTime())) {
    return toolError(
      'INVALID_PARAMETER',
      `at must be an ISO time with its zone, not ${safeText(text, 100)}`,
      {
        tool,
        resolution: 'give a time such as 2026-12-01T09:00:00Z',
      },
    );
  }
  if (at.getTime() < now.getTime()) {
    return toolError('INVALID_PARAMETER', `at ${at.toISOString()} is before now (${now.toISOString()})`, {
      tool,
      resolution: 'a preview looks ahead: give a later time',
    });
  }
  return at;
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
