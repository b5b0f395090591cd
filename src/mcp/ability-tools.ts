import {
  type AbilityDescription,
  type DashboardClient,
  isRequestLineTooLong,
  MAX_REQUEST_LINE_BYTES,
} from '../dashboard/index.js';
import { canonicalJson } from '../plan/index.js';
import type { ConfirmationTokens } from './tokens.js';
import { type ToolDef, type ToolOutcome, toolError, toolOk } from './tool-result.js';

/** Parameters the server adds to destructive tools and strips before calling the ability. */
const USER_CONFIRMED = 'user_confirmed';
const CONFIRMATION_TOKEN = 'confirmation_token';
/** Parameters of the ability itself that steer the two steps. */
const DRY_RUN = 'dry_run';
const CONFIRM = 'confirm';
const PREVIEW_TOKEN = 'preview_token';
const FLOW_KEYS = new Set([USER_CONFIRMED, CONFIRMATION_TOKEN, DRY_RUN, CONFIRM, PREVIEW_TOKEN]);

export interface AbilityToolOptions {
  client: DashboardClient;
  /** The GitOps tools' prefix (`svc`, or `--namespace`), named in the descriptions. */
  prefix: string;
  tokens: ConfirmationTokens;
  requireUserConfirmation: boolean;
}

/** `svc/list-sites-v1` → `list_sites_v1` (hyphens are not valid in tool names, spec §4.3). */
export function abilityToolName(ability: AbilityDescription): string {
  return ability.shortName.replace(/[^A-Za-z0-9_]/g, '_');
}

/**
 * Destructive as the tool server judges it: every ability that is not read-only. A catalogue's
 * `destructive` annotation is not trusted to be false: the shipped release marks update-all,
 * which the interface calls destructive (spec §4.2 note 1), and every update and ignore ability
 * `destructive: false`. Judged so, a write through an ability tool meets safe mode and the
 * two-step confirmation like svc_apply, and an agent has no path to the dashboard around them.
 */
export function isDestructive(ability: AbilityDescription): boolean {
  return !ability.annotations.readonly;
}

/** One tool per ability the catalogue lists, its schema and annotations passed through. */
export function abilityTools(abilities: AbilityDescription[], options: AbilityToolOptions): ToolDef[] {
  return abilities.map((ability) => abilityTool(ability, options));
}

function abilityTool(ability: AbilityDescription, options: AbilityToolOptions): ToolDef {
  const name = abilityToolName(ability);
  const destructive = isDestructive(ability);
  const gated = destructive && options.requireUserConfirmation;
  // Without a boolean `confirm` the flow can only refuse (CONFIRMATION_UNSUPPORTED): the tool
  // then offers no confirmation parameters that could never work.
  const confirmable = gated && declaresBoolean(ability, CONFIRM);
  const schema = objectSchema(ability.inputSchema);
  if (confirmable) {
    schema.properties = {
      ...(schema.properties as Record<string, unknown>),
      [USER_CONFIRMED]: {
        type: 'boolean',
        description: 'true only after the user saw the preview and explicitly approved it',
      },
      [CONFIRMATION_TOKEN]: {
        type: 'string',
        description: 'the token the preview returned (valid 5 minutes, single use, same arguments)',
      },
    };
  }
  const description = [
    ability.description || ability.label,
    confirmable
      ? 'Destructive: call first without user_confirmed to get a preview and a confirmation_token; after the user approves, call again with the same arguments plus user_confirmed: true and the token.'
      : gated
        ? `Changes the dashboard and cannot be confirmed here (the ability takes no confirm parameter): change the dashboard through ${options.prefix}_plan and ${options.prefix}_apply instead.`
        : '',
  ]
    .filter(Boolean)
    .join(' ');
  return {
    name,
    ...(ability.label ? { title: ability.label } : {}),
    description,
    inputSchema: schema,
    annotations: {
      readOnlyHint: ability.annotations.readonly,
      destructiveHint: destructive,
      idempotentHint: ability.annotations.idempotent,
    },
    destructive,
    run: (args, signal) =>
      gated
        ? confirmationFlow(ability, name, args, options, signal)
        : destructive
          ? unconfirmed(ability, name, args, options, signal)
          : call(ability, name, args, options, signal),
  };
}

/** The input schema as an MCP tool schema: always an object schema. */
function objectSchema(schema: unknown): Record<string, unknown> {
  if (typeof schema === 'object' && schema !== null && !Array.isArray(schema)) {
    const copy = structuredClone(schema) as Record<string, unknown>;
    copy.type = 'object';
    if (typeof copy.properties !== 'object' || copy.properties === null) copy.properties = {};
    return copy;
  }
  return { type: 'object', properties: {}, additionalProperties: false };
}

function declaresBoolean(ability: AbilityDescription, key: string): boolean {
  const schema = ability.inputSchema as { properties?: Record<string, { type?: unknown }> } | undefined;
  const type = schema?.properties?.[key]?.type;
  return type === 'boolean' || (Array.isArray(type) && type.includes('boolean'));
}

function declares(ability: AbilityDescription, key: string): boolean {
  const schema = ability.inputSchema as { properties?: Record<string, unknown> } | undefined;
  return schema?.properties?.[key] !== undefined;
}

async function call(
  ability: AbilityDescription,
  tool: string,
  input: Record<string, unknown>,
  options: AbilityToolOptions,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  const refusal = queryRefusal(ability, tool, input);
  if (refusal) return refusal;
  const { readonly } = ability.annotations;
  // A read is not sent once its call is cancelled; one already queued or sent runs to its end
  // (within the request timeout) and the SDK drops its answer. Linking the call's signal into
  // the transport costs two abort listeners and a controller per request, 12-24 % of the CPU of
  // reading a 40 KB page (docs/mcp.md, Benchmark); a write keeps it, so a cancelled write that
  // has not gone out never does.
  if (readonly && signal.aborted)
    return toolError('INTERRUPTED', 'the call was cancelled before it was sent', { tool });
  try {
    const { json } = await options.client.runAbilityJson(
      ability.shortName,
      input,
      readonly ? {} : { signal },
    );
    return { answerJson: json };
  } catch (error) {
    // The caller's arguments went into the query: too many of them is theirs to fix.
    const bytes = isRequestLineTooLong(error);
    if (bytes === undefined) throw error;
    return toolError(
      'INVALID_PARAMETER',
      `the arguments make a request line of ${bytes} bytes, over the ${MAX_REQUEST_LINE_BYTES} a web server accepts`,
      {
        tool,
        ability: ability.name,
        resolution: 'ask for fewer sites or items per call, over several calls',
      },
    );
  }
}

/**
 * A read-only or destructive-idempotent ability takes its input in the query, where an empty
 * array cannot be written (and an absent key means something else): refused with what to do.
 */
function queryRefusal(
  ability: AbilityDescription,
  tool: string,
  input: Record<string, unknown>,
): ToolOutcome | undefined {
  if (ability.method === 'POST') return undefined;
  const empty = Object.entries(input).find(([, value]) => Array.isArray(value) && value.length === 0);
  if (!empty) return undefined;
  return toolError('INVALID_PARAMETER', `${empty[0]} is an empty array`, {
    tool,
    ability: ability.name,
    reason: `${ability.name} takes its input in the URL query, where an empty array cannot be sent`,
    resolution: `leave ${empty[0]} out for its default, or give at least one value`,
  });
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
async function unconfirmed(
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
async function confirmationFlow(
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
  const binding = canonicalJson({ dashboard: options.client.url, input });
  if (userConfirmed) {
    const token = args[CONFIRMATION_TOKEN];
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
    metadata: { tool, ability: ability.name, expiresIn: '5 minutes' },
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
