import type { AbilityDescription } from '../dashboard/index.js';
import { call } from './ability-call.js';
import type { AbilityToolOptions, Gating } from './ability-options.js';
import {
  CONFIRM,
  CONFIRMATION_TOKEN,
  confirmationFlow,
  declaresBoolean,
  USER_CONFIRMED,
  unconfirmed,
} from './confirmation.js';
import type { ToolDef } from './tool-result.js';

/** `svc/list-sites-v1` → `list_sites_v1` (hyphens are not valid in tool names, spec §4.3). */
export function abilityToolName(ability: AbilityDescription): string {
  return ability.shortName.replace(/[^A-Za-z0-9_]/g, '_');
}

/**
 * Whether a write is gated: it meets safe mode and the two-step confirmation like svc_apply.
 *
 * `writes` (the default): every ability that is not read-only, except a maintenance refresh. A
 * catalogue's `destructive: false` is not trusted there: the shipped release marks update-all,
 * which the interface calls destructive (spec §4.2 note 1), and every update and ignore ability
 * so, which would give an agent a path to the sites around both. A maintenance refresh (check,
 * sync: idempotent and not destructive, it re-reads sites into the dashboard and changes none)
 * runs as called.
 *
 * `annotations` (compatibility vendor): exactly the abilities the catalogue does not annotate
 * `destructive: false` (a missing annotation counts as destructive), as the vendor's server does.
 */
export function isGated(ability: AbilityDescription, gating: Gating): boolean {
  const { readonly, destructive, idempotent } = ability.annotations;
  if (gating === 'annotations') return destructive !== false;
  if (readonly) return false;
  return !(destructive === false && idempotent && MAINTENANCE.test(ability.shortName));
}

/** Abilities that refresh the dashboard's view of sites: `check-site-v1`, `sync-sites-v1`, … */
const MAINTENANCE = /^(check|sync)-sites?-v\d+$/;

/** One tool per ability the catalogue lists, its schema and annotations passed through. */
export function abilityTools(abilities: AbilityDescription[], options: AbilityToolOptions): ToolDef[] {
  return abilities.map((ability) => abilityTool(ability, options));
}

function abilityTool(ability: AbilityDescription, options: AbilityToolOptions): ToolDef {
  const name = abilityToolName(ability);
  const destructive = isGated(ability, options.gating);
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
    description: options.schemaVerbosity === 'compact' ? compact(description) : description,
    inputSchema: schema,
    annotations: {
      readOnlyHint: ability.annotations.readonly,
      destructiveHint: destructive,
      idempotentHint: ability.annotations.idempotent,
      // Every ability reaches the dashboard and through it the sites: an open world.
      openWorldHint: true,
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

/** A description cut to 60 characters, as the vendor's compact schema verbosity does. */
function compact(description: string): string {
  return description.length <= 60 ? description : `${description.slice(0, 59).trimEnd()}…`;
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
