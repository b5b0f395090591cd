import type { ApplyReport } from '../../render/index.js';
import {
  countDiagnostics,
  countStatuses,
  haltText,
  renderApplyMarkdown,
  renderDiagnosticsText,
  renderPlanJson,
  renderPlanMarkdown,
  renderPlanText,
} from '../../render/index.js';
import type { RolloutHalt } from '../../types.js';
import type { ConfirmationTokens } from '../tokens.js';
import { type ComposedOutcome, type ToolDef, type ToolOutcome, toolError, toolOk } from '../tool-result.js';
import type { GitopsEngine, Planned } from './engine.js';
import { explain } from './explain.js';
import type { PlanStore } from './plan-store.js';

export interface GitopsToolOptions {
  /** Tool name prefix: the product name (`svc` → `svc_plan`). */
  prefix: string;
  engine: () => GitopsEngine;
  tokens: ConfirmationTokens;
  plans: PlanStore;
  safeMode: boolean;
}

/** The markdown a tool result carries: room for a big plan, well below the default size limit. */
const MARKDOWN_CAP = 60_000;

/** Reads of the working directory or the session's plans: nothing beyond the server. */
const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/**
 * The GitOps tools: the same reviewed plan → approved apply discipline a pull request gets.
 * `plan` is the preview and issues the token; `apply` runs exactly that plan (checked as a saved
 * plan is) and nothing else can make it act.
 */
export function gitopsTools(options: GitopsToolOptions): ToolDef[] {
  const { prefix } = options;
  const applyTool = `${prefix}_apply`;
  return [
    {
      name: `${prefix}_validate`,
      title: 'Validate the desired state',
      description:
        'Checks a desired-state YAML (config: a path inside the working directory, default svc-gitops.yaml or svc-gitops/; or yaml: the text) against the schema and rules; every problem with file:line:col and a hint. Does not contact the dashboard.',
      inputSchema: {
        type: 'object',
        properties: {
          config: {
            type: 'string',
            maxLength: 1000,
            description: `file or directory inside the working directory, as ${prefix}_plan takes it`,
          },
          path: { type: 'string', maxLength: 1000, description: 'the same as config' },
          yaml: { type: 'string', maxLength: 4_194_304, description: 'desired-state YAML text' },
        },
        additionalProperties: false,
      },
      annotations: READ,
      destructive: false,
      async run(args) {
        const given = ['config', 'path', 'yaml'].filter((key) => args[key] !== undefined);
        if (given.length > 1) {
          return toolError(
            'INVALID_PARAMETER',
            `give one of config, path or yaml, not ${given.join(' and ')}`,
            {
              tool: `${prefix}_validate`,
            },
          );
        }
        const path = args.config ?? args.path;
        const validated = await options.engine().validate({
          ...(typeof path === 'string' ? { path } : {}),
          ...(typeof args.yaml === 'string' ? { yaml: args.yaml } : {}),
        });
        const { errors, warnings } = countDiagnostics(validated.diagnostics);
        const valid = validated.desired !== undefined;
        const verdict = `${validated.source}: ${valid ? 'valid' : `invalid (${errors} error(s))`}${warnings ? `, ${warnings} warning(s)` : ''}`;
        return toolOk(
          {
            valid,
            source: validated.source,
            errors,
            warnings,
            diagnostics: validated.diagnostics.slice(0, 200),
            ...(validated.desired ? { digest: validated.desired.digest } : {}),
          },
          `${renderDiagnosticsText(validated.diagnostics, { colour: false })}${verdict}\n`,
        );
      },
    },
    {
      name: `${prefix}_plan`,
      title: 'Plan',
      description: `Reads the dashboard and plans the desired state: the dry-run preview. Returns plan_id, the roll-up, the plan as markdown and, when there is something to apply, a confirmation_token for ${applyTool} (valid 5 minutes, single use, bound to this plan). Show the markdown to the user before applying.`,
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
      async run(args, signal) {
        const planned = await options.engine().plan(
          {
            ...(typeof args.config === 'string' ? { config: args.config } : {}),
            ...(Array.isArray(args.target) ? { targets: args.target as string[] } : {}),
          },
          signal,
        );
        options.plans.add(planned);
        const { plan } = planned;
        const changes = plan.actions.length > 0;
        // Bound to the plan id: a later plan issues its own token and leaves this one valid.
        const issued = changes ? options.tokens.issue(applyTool, plan.id, plan.id) : undefined;
        const safeModeBlocked = options.safeMode && plan.summary.high_risk > 0;
        const markdown = renderPlanMarkdown(plan, { live: planned.live, maxChars: MARKDOWN_CAP });
        return withHalt(plan.rollout_halt, {
          structured: {
            plan_id: plan.id,
            has_changes: changes,
            summary: plan.summary,
            needs_approval: plan.needs_approval,
            plan_expires_at: plan.expires_at,
            ...(issued
              ? { confirmation_token: issued.token, expires_at: issued.expiresAt.toISOString() }
              : {}),
            safe_mode_blocked: safeModeBlocked,
            next_action: !changes
              ? 'nothing_to_apply'
              : safeModeBlocked
                ? 'blocked_by_safe_mode'
                : 'show_plan_and_confirm',
            markdown,
          },
          text: `${markdown}\n${
            issued
              ? `To apply: show this plan to the user; after explicit approval call ${applyTool} with confirmation_token ${issued.token} and user_confirmed: true (valid until ${issued.expiresAt.toISOString()}).${safeModeBlocked ? ' Safe mode is on and the plan holds high-risk actions: apply will refuse it (SAFE_MODE_BLOCKED).' : ''}`
              : 'Nothing to apply.'
          }\n`,
        });
      },
    },
    {
      name: applyTool,
      title: 'Apply a plan',
      description: `Applies exactly the plan a ${prefix}_plan call previewed, once the user approved it: confirmation_token from that call and user_confirmed: true. The plan is refused when it expired, was used, or the touched sites changed since (plan again). dry_run: true lists the calls it would send, sending nothing.`,
      inputSchema: {
        type: 'object',
        properties: {
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
      run: (args, signal) => apply(options, applyTool, args, signal),
    },
    {
      name: `${prefix}_show_plan`,
      title: 'Show a plan',
      description: `Shows a plan of this session (the last one by default) as markdown, text or the JSON plan file.`,
      inputSchema: {
        type: 'object',
        properties: {
          plan_id: { type: 'string', maxLength: 100 },
          format: { type: 'string', enum: ['markdown', 'text', 'json'] },
        },
        additionalProperties: false,
      },
      annotations: READ,
      destructive: false,
      async run(args) {
        const planned = findPlan(options, `${prefix}_show_plan`, args.plan_id);
        if ('structured' in planned) return planned;
        const { plan } = planned;
        const format = typeof args.format === 'string' ? args.format : 'markdown';
        const text =
          format === 'json'
            ? renderPlanJson(plan)
            : format === 'text'
              ? renderPlanText(plan, { colour: false })
              : renderPlanMarkdown(plan, { live: planned.live, maxChars: MARKDOWN_CAP });
        return toolOk({ plan_id: plan.id, summary: plan.summary, format, plan: text }, text);
      },
    },
    {
      name: `${prefix}_drift`,
      title: 'Detect drift',
      description:
        'Plans against the live dashboard and says whether it drifted from the desired state (a plan with actions).',
      inputSchema: {
        type: 'object',
        properties: { config: { type: 'string', maxLength: 1000 } },
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
      destructive: false,
      async run(args, signal) {
        const planned = await options
          .engine()
          .plan(typeof args.config === 'string' ? { config: args.config } : {}, signal);
        options.plans.add(planned);
        const drift = planned.plan.actions.length > 0;
        const markdown = renderPlanMarkdown(planned.plan, { live: planned.live, maxChars: MARKDOWN_CAP });
        return toolOk(
          { drift, plan_id: planned.plan.id, summary: planned.plan.summary, markdown },
          `${drift ? 'Drift found.' : 'No drift.'}\n\n${markdown}`,
        );
      },
    },
    {
      name: `${prefix}_explain`,
      title: 'Explain an item',
      description:
        'Why is this item on this site (not) updated or ignored? Answered from a plan of this session (the last by default): the rule, policy, hold or wave with its file:line, and the live facts.',
      inputSchema: {
        type: 'object',
        properties: {
          site: { type: 'string', maxLength: 500, description: 'site ID or domain' },
          item: {
            type: 'string',
            maxLength: 500,
            description: 'core, plugin:<slug>, theme:<slug>, translation:<slug> or a slug',
          },
          plan_id: { type: 'string', maxLength: 100 },
        },
        required: ['site', 'item'],
        additionalProperties: false,
      },
      annotations: READ,
      destructive: false,
      async run(args) {
        const planned = findPlan(options, `${prefix}_explain`, args.plan_id);
        if ('structured' in planned) return planned;
        const answer = explain(planned, { site: String(args.site), item: String(args.item) });
        return toolOk(answer, String(answer.explanation));
      },
    },
  ];
}

function findPlan(options: GitopsToolOptions, tool: string, id: unknown): Planned | ComposedOutcome {
  const planned = typeof id === 'string' ? options.plans.get(id) : options.plans.last();
  if (planned) return planned;
  return toolError(
    'PREVIEW_REQUIRED',
    typeof id === 'string' ? `no plan ${id} in this session` : 'no plan yet in this session',
    {
      tool,
      resolution: `call ${options.prefix}_plan first`,
    },
  );
}

async function apply(
  options: GitopsToolOptions,
  tool: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  const token = typeof args.confirmation_token === 'string' ? args.confirmation_token : undefined;
  const userConfirmed = args.user_confirmed === true;
  if (userConfirmed && args.dry_run === true) {
    return toolError('CONFLICTING_PARAMETERS', 'user_confirmed and dry_run cannot both be true', {
      tool,
      reason: 'a call either lists the calls (dry_run) or applies (user_confirmed)',
      resolution: 'call with dry_run: true to see the calls, then with user_confirmed: true to apply',
    });
  }
  const planFor = (id: unknown) => (typeof id === 'string' ? options.plans.get(id) : undefined);
  if (token === undefined || token === '') {
    return toolError('PREVIEW_REQUIRED', 'applying needs the confirmation_token of a plan', {
      tool,
      reason: 'no confirmation_token was given',
      resolution: `call ${options.prefix}_plan, show the plan to the user, then apply with its token and user_confirmed: true`,
    });
  }
  if (!userConfirmed) {
    const planned = planFor(options.tokens.peek(token, tool));
    if (!planned) {
      return toolError('PREVIEW_REQUIRED', 'no valid plan for this confirmation_token', {
        tool,
        reason: 'the token is unknown, used or expired',
        resolution: `call ${options.prefix}_plan again`,
      });
    }
    if (args.dry_run === true) {
      const calls = await options.engine().describeCalls(planned);
      return toolOk({ plan_id: planned.plan.id, dry_run: true, calls }, calls);
    }
    return toolOk({
      status: 'CONFIRMATION_REQUIRED',
      next_action: 'show_preview_and_confirm',
      message: 'Show the plan to the user and apply only after explicit approval, with user_confirmed: true.',
      plan_id: planned.plan.id,
      summary: planned.plan.summary,
      confirmation_token: token,
    });
  }
  const redeemed = options.tokens.redeem(token, tool);
  if (!redeemed.ok) {
    return toolError(
      redeemed.code,
      redeemed.code === 'PREVIEW_EXPIRED' ? 'the preview expired' : 'no valid plan for this call',
      {
        tool,
        reason: redeemed.reason,
        resolution: `call ${options.prefix}_plan again and apply with its new token`,
      },
    );
  }
  const planned = planFor(redeemed.carried);
  if (!planned) {
    return toolError('PREVIEW_REQUIRED', 'the plan of this token is no longer held by the server', {
      tool,
      resolution: `call ${options.prefix}_plan again`,
    });
  }
  return appliedOutcome(planned, await options.engine().apply(planned, signal));
}

/**
 * An apply's result: an error whenever an action failed or went unverified, the dashboard was
 * unreachable, or the rollout is halted (held before the run, or stopped by a wave's health
 * check), the last with `stopped` and the hold or stopping wave as `health`.
 */
function appliedOutcome(planned: Planned, report: ApplyReport): ComposedOutcome {
  const counts = countStatuses(report.result.outcomes);
  const unverified = report.result.outcomes.filter((outcome) => outcome.unverified).length;
  const markdown = renderApplyMarkdown(report);
  const stoppedWave = report.result.health?.find((wave) => wave.stopped);
  const failed =
    counts.failed > 0 ||
    unverified > 0 ||
    report.unreachable !== undefined ||
    stoppedWave !== undefined ||
    report.halt !== undefined;
  return {
    structured: {
      plan_id: planned.plan.id,
      applied: !failed,
      ...(report.halt || stoppedWave
        ? {
            stopped: true,
            health: report.halt ?? stoppedWave,
            ...(report.result.health ? { waves: report.result.health } : {}),
          }
        : {}),
      counts,
      unverified,
      calls: report.result.calls,
      ...(report.unreachable ? { unreachable: report.unreachable.message } : {}),
      ...(report.verificationError ? { verification_error: report.verificationError } : {}),
      markdown,
    },
    text: markdown,
    ...(failed ? { isError: true } : {}),
  };
}

/**
 * A plan made while the rollout is held (a wave's unhealthy sites are still unhealthy) is an
 * error result that says so: `stopped` and the hold as `health`, as the CLI exits non-zero.
 */
function withHalt(halt: RolloutHalt | undefined, outcome: ComposedOutcome): ComposedOutcome {
  if (!halt) return outcome;
  const line = haltText(halt);
  return {
    structured: { ...outcome.structured, stopped: true, health: halt },
    text: `${line}\n\n${outcome.text ?? ''}`,
    isError: true,
  };
}
