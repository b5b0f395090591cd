import type { AbilityDescription } from '../dashboard/index.js';
import { canonicalJson } from '../engine/index.js';
import { call, queryRefusal } from './ability-call.js';
import type { AbilityToolOptions } from './ability-options.js';
import { type ToolOutcome, toolError, toolOk } from './tool-result.js';

/** Parameters the server adds to destructive tools and strips before calling the ability. */
export const USER_CONFIRMED = 'user_confirmed';
export const CONFIRMATION_TOKEN = 'confirmation_token';
/** Parameters of the ability itself that steer the two steps. */
export const DRY_RUN = 'dry_run';
export const CONFIRM = 'confirm';
const PREVIEW_TOKEN = 'preview_token';
const FLOW_KEYS = new Set([USER_CONFIRMED, CONFIRMATION_TOKEN, DRY_RUN, CONFIRM, PREVIEW_TOKEN]);

export function declaresBoolean(ability: AbilityDescription, key: string): boolean {
  const schema = ability.inputSchema as { properties?: Record<string, { type?: unknown }> } | undefined;
  const type = schema?.properties?.[key]?.type;
  return type === 'boolean' || (Array.isArray(type) && type.includes('boolean'));
}

function declares(ability: AbilityDescription, key: string): boolean {
  const schema = ability.inputSchema as { properties?: Record<string, unknown> } | undefined;
  return schema?.properties?.[key] !== undefined;
}

/** The dashboard's answer as structured content: objects as they are, anything else wrapped. */
function asStructured(answer: unknown): Record<string, unknown> {
  if (typeof answer === 'object' && answer !== null && !Array.isArray(answer)) {
    return answer as Record<string, unknown>;
  }
  return { result: answer ?? null };
}

/**
 * A destructive ability with requireUserConfirmation false: executes at once. `user_confirmed`
 * with `dry_run` is still CONFLICTING_PARAMETERS (spec §3, any state); the flow's own
 * parameters, which a client may send out of habit, are not passed to the ability.
 */
export async function unconfirmed(
  ability: AbilityDescription,
  tool: string,
  args: Record<string, unknown>,
  options: AbilityToolOptions,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  if (args[USER_CONFIRMED] === true && args[DRY_RUN] === true) return conflicting(tool, ability);
  const input = Object.fromEntries(
    Object.entries(args).filter(([key]) => key !== USER_CONFIRMED && key !== CONFIRMATION_TOKEN),
  );
  return call(ability, tool, input, options, signal);
}

function conflicting(tool: string, ability: AbilityDescription): ToolOutcome {
  return toolError('CONFLICTING_PARAMETERS', 'user_confirmed and dry_run cannot both be true', {
    tool,
    ability: ability.name,
    reason: 'a call either previews (dry_run) or executes (user_confirmed)',
    resolution: 'preview with dry_run: true, then confirm with user_confirmed: true and the token',
  });
}

/**
 * The two-step flow of spec §3/§7 for a destructive ability, in this order: no boolean `confirm`
 * → CONFIRMATION_UNSUPPORTED (fail closed); `user_confirmed` with `dry_run` →
 * CONFLICTING_PARAMETERS; `user_confirmed` with a valid token → executes once with
 * `confirm: true`; `user_confirmed` without a valid one → PREVIEW_REQUIRED / PREVIEW_EXPIRED;
 * anything else → a preview (the ability's dry run, or null when it has none) and the
 * informational CONFIRMATION_REQUIRED with a token bound to the tool, dashboard and arguments.
 */
export async function confirmationFlow(
  ability: AbilityDescription,
  tool: string,
  args: Record<string, unknown>,
  options: AbilityToolOptions,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  const details = { tool, ability: ability.name };
  if (!declaresBoolean(ability, CONFIRM)) {
    return toolError(
      'CONFIRMATION_UNSUPPORTED',
      `${ability.name} is destructive but declares no boolean "confirm" parameter, so it cannot be confirmed safely`,
      {
        ...details,
        reason: 'the two-step confirmation needs the ability to take confirm: true',
        resolution:
          'use the GitOps tools (plan, then apply with its token) or the dashboard itself; an operator can set requireUserConfirmation: false',
      },
    );
  }
  const userConfirmed = args[USER_CONFIRMED] === true;
  if (userConfirmed && args[DRY_RUN] === true) return conflicting(tool, ability);
  const input = abilityInput(args);
  const step: Step = {
    ability,
    tool,
    input,
    binding: canonicalJson({ dashboard: options.client.url, input }),
    options,
    signal,
  };
  return userConfirmed ? confirmed(step, args[CONFIRMATION_TOKEN]) : previewed(step);
}

/** One call of the flow: what confirmed() and previewed() work on. */
interface Step {
  ability: AbilityDescription;
  tool: string;
  /** The arguments meant for the ability (the flow's own taken out). */
  input: Record<string, unknown>;
  /** What a token is bound to: the dashboard and the canonical arguments. */
  binding: string;
  options: AbilityToolOptions;
  signal: AbortSignal;
}

/** `user_confirmed`: executes once with a valid token for the same effect, else refuses. */
async function confirmed(step: Step, token: unknown): Promise<ToolOutcome> {
  const { ability, tool, input, binding, options, signal } = step;
  const details = { tool, ability: ability.name };
  if (typeof token !== 'string' || token === '') {
    return toolError('PREVIEW_REQUIRED', 'executing needs the confirmation_token of a preview', {
      ...details,
      reason: 'no confirmation_token was given',
      resolution:
        'call without user_confirmed first, show the preview to the user, then confirm with its token',
    });
  }
  const redeemed = options.tokens.redeem(token, tool, binding);
  if (!redeemed.ok) {
    return toolError(
      redeemed.code,
      redeemed.code === 'PREVIEW_EXPIRED' ? 'the preview expired' : 'no valid preview for this call',
      {
        ...details,
        reason: redeemed.reason,
        resolution: 'preview again with the same arguments and confirm with the new token',
      },
    );
  }
  const shown = redeemed.carried as Previewed;
  let previewToken = shown.previewToken;
  if (shown.digest !== undefined) {
    // The user approved what the preview showed: the same arguments may do more once the
    // live state changed (an update pending since, an ignore lifted). Preview again and act
    // only on the same effect, as svc_apply acts only on an unchanged plan.
    const again = await dryRun(ability, input, options, signal);
    if (previewDigest(again) !== shown.digest) {
      return toolError('PREVIEW_REQUIRED', 'the effect changed since the preview the user approved', {
        ...details,
        reason: 'a new dry run of the same arguments no longer matches the preview',
        resolution: 'preview again, show the new preview to the user and confirm with its token',
      });
    }
    previewToken = stringOr(again[PREVIEW_TOKEN], previewToken);
  }
  const execute: Record<string, unknown> = { ...input, [CONFIRM]: true };
  if (previewToken !== undefined && declares(ability, PREVIEW_TOKEN)) execute[PREVIEW_TOKEN] = previewToken;
  return call(ability, tool, execute, options, signal);
}

/**
 * Any call without `user_confirmed`: a preview (the ability's dry run, or null when it has none)
 * and the informational CONFIRMATION_REQUIRED with a token bound to the tool and binding.
 */
async function previewed(step: Step): Promise<ToolOutcome> {
  const { ability, tool, input, binding, options, signal } = step;
  let preview: Record<string, unknown> | null = null;
  if (declaresBoolean(ability, DRY_RUN)) {
    const refusal = queryRefusal(ability, tool, input);
    if (refusal) return refusal;
    preview = await dryRun(ability, input, options, signal);
  }
  const carried: Previewed = preview
    ? { digest: previewDigest(preview), previewToken: stringOr(preview[PREVIEW_TOKEN], undefined) }
    : {};
  const issued = options.tokens.issue(tool, binding, carried);
  return toolOk({
    status: 'CONFIRMATION_REQUIRED',
    next_action: preview ? 'show_preview_and_confirm' : 'confirm_without_preview',
    message: preview
      ? `Show this preview of ${ability.name} to the user and ask for explicit approval before confirming.`
      : `${ability.name} cannot preview its effect: describe what it will do and ask the user for explicit approval.`,
    preview,
    confirmation_token: issued.token,
    expires_at: issued.expiresAt.toISOString(),
    instructions: `After the user approves, call ${tool} again with the same arguments plus user_confirmed: true and confirmation_token. The token works once, for 5 minutes.`,
    // The token in the metadata too, where earlier releases of the vendor's server put it.
    metadata: { tool, ability: ability.name, expiresIn: '5 minutes', confirmation_token: issued.token },
  });
}

/** What a confirmation token carries of the preview it was issued with. */
interface Previewed {
  /** The preview's canonical JSON without the dashboard's own token; absent when there was none. */
  digest?: string;
  previewToken?: string | undefined;
}

async function dryRun(
  ability: AbilityDescription,
  input: Record<string, unknown>,
  options: AbilityToolOptions,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  return asStructured(
    await options.client.runAbility(ability.shortName, { ...input, [DRY_RUN]: true }, { signal }),
  );
}

function previewDigest(preview: Record<string, unknown>): string {
  const { [PREVIEW_TOKEN]: _token, ...effect } = preview;
  return canonicalJson(effect);
}

function stringOr(value: unknown, fallback: string | undefined): string | undefined {
  return typeof value === 'string' ? value : fallback;
}

/** The arguments meant for the ability: without the flow's own parameters. */
function abilityInput(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([key]) => !FLOW_KEYS.has(key)));
}
