import { abilityCaller } from '../auth.js';
import { canAccess, canManage, nsCode, type SandboxContext } from '../context.js';
import type { FleetUser } from '../fleet-types.js';
import { errorReply, isRecord, noRoute, ok, type Reply, type SandboxRequest } from '../http-util.js';
import { parsePhpQuery } from '../php-query.js';
import { type FleetHandler, notFoundMessage, type SiteHandler } from './call.js';
import { type AbilityInfo, catalogueItem, categoryItems, fullName, methodFor } from './catalogue.js';
import { checkSite } from './check-site.js';
import { gatedUpdate } from './gated.js';
import { getClientSites, getTagSites, listClients, listTags } from './groups.js';
import { ignoreSiteCore, ignoreSitePlugins, ignoreSiteThemes, setIgnoredUpdates } from './ignore.js';
import { GATED_ABILITIES } from './next-release.js';
import { getSiteUpdates, jobStatus, listIgnored, listSites, listUpdates } from './read.js';
import {
  runUpdates,
  updateAll,
  updateSiteCore,
  updateSitePlugins,
  updateSiteThemes,
  updateSiteTranslations,
} from './run.js';
import { countSites, getSite, getSitePlugins, getSitesBasic, getSiteThemes, syncSites } from './sites.js';
import { unignoreSiteUpdates } from './unignore.js';
import { validate } from './validate.js';

/** Abilities over many sites (or none): they resolve `site_ids_or_domains` themselves. */
const FLEET_HANDLERS: Record<string, FleetHandler> = {
  'list-sites-v1': listSites,
  'count-sites-v1': countSites,
  'get-sites-basic-v1': getSitesBasic,
  'sync-sites-v1': syncSites,
  'list-updates-v1': listUpdates,
  'run-updates-v1': runUpdates,
  'list-ignored-updates-v1': listIgnored,
  'update-all-v1': updateAll,
  'get-batch-job-status-v1': jobStatus,
  'list-clients-v1': listClients,
  'get-client-sites-v1': getClientSites,
  'list-tags-v1': listTags,
  'get-tag-sites-v1': getTagSites,
};

/** Single-site abilities: the site is resolved and access-checked inside the permission check. */
const SITE_HANDLERS: Record<string, SiteHandler> = {
  'get-site-v1': getSite,
  'get-site-plugins-v1': getSitePlugins,
  'get-site-themes-v1': getSiteThemes,
  'unignore-site-updates-v1': unignoreSiteUpdates,
  'get-site-updates-v1': getSiteUpdates,
  'update-site-core-v1': updateSiteCore,
  'update-site-plugins-v1': updateSitePlugins,
  'update-site-themes-v1': updateSiteThemes,
  'update-site-translations-v1': updateSiteTranslations,
  'set-ignored-updates-v1': setIgnoredUpdates,
  'ignore-site-core-v1': ignoreSiteCore,
  'ignore-site-plugins-v1': ignoreSitePlugins,
  'ignore-site-themes-v1': ignoreSiteThemes,
  'check-site-v1': checkSite,
};

const METHOD_MESSAGES = {
  GET: 'Read-only abilities require GET method.',
  POST: 'Abilities that perform updates require POST method.',
  DELETE: 'Abilities that perform destructive actions require DELETE method.',
} as const;

/** Whether the sandbox has a handler for the ability (the catalogue lists only those). */
export function isImplemented(name: string): boolean {
  return Object.hasOwn(FLEET_HANDLERS, name) || Object.hasOwn(SITE_HANDLERS, name);
}

/** The ability name a run path addresses (for stats and fault rules), or undefined. */
export function abilityOfPath(rest: string): string | undefined {
  return /^abilities\/(.+)\/run$/.exec(rest)?.[1];
}

/** Routes under `/wp-json/wp-abilities/v1/`; `rest` is the path after that prefix. */
export function handleAbilities(
  ctx: SandboxContext,
  req: SandboxRequest,
  rest: string,
  catalogue: AbilityInfo[],
): Reply {
  const reply = dispatchAbilities(ctx, req, rest, catalogue);
  if (reply.status < 200 || reply.status >= 300) return reply;
  // MainWP 6.1.2 on WordPress 6.9 names the route's methods on answers that succeed (errors of
  // these routes carry none): the run route takes them all (the annotations pick one), the
  // catalogue routes only GET.
  const allow = abilityOfPath(rest) ? 'GET, POST, PUT, PATCH, DELETE' : 'GET';
  return { ...reply, headers: { ...reply.headers, Allow: allow } };
}

function dispatchAbilities(
  ctx: SandboxContext,
  req: SandboxRequest,
  rest: string,
  catalogue: AbilityInfo[],
): Reply {
  const caller = abilityCaller(ctx, req);
  if ('error' in caller) return caller.error;
  if (rest === 'abilities' || rest === 'abilities/') {
    if (req.method !== 'GET') return noRoute();
    if (!caller.user) return errorReply(401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
    return listCatalogue(ctx, req, catalogue);
  }
  if (rest === 'categories' || rest === 'categories/') {
    if (req.method !== 'GET') return noRoute();
    if (!caller.user) return errorReply(401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
    const categories = categoryItems(ctx, catalogue);
    // WordPress pages every collection; the categories fit one page.
    return ok(categories, { 'X-WP-Total': String(categories.length), 'X-WP-TotalPages': '1' });
  }
  const runName = abilityOfPath(rest);
  const ability = catalogue.find((a) => fullName(ctx, a) === (runName ?? rest.replace(/^abilities\//, '')));
  if (runName === undefined) {
    if (!rest.startsWith('abilities/') || req.method !== 'GET') return noRoute();
    if (!caller.user) return errorReply(401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
    return ability
      ? ok(catalogueItem(ctx, ability))
      : errorReply(404, 'rest_ability_not_found', 'Ability not found.');
  }
  ctx.stats.countAbility(runName);
  if (!ability) return errorReply(404, 'rest_ability_not_found', 'Ability not found.');
  const reply = runAbility(ctx, req, ability, caller.user);
  ctx.audit?.check(ability, reply);
  return reply;
}

function listCatalogue(ctx: SandboxContext, req: SandboxRequest, catalogue: AbilityInfo[]): Reply {
  const page = Number(req.query.get('page') ?? '1');
  const perPage = Number(req.query.get('per_page') ?? '50');
  if (!Number.isInteger(page) || page < 1)
    return errorReply(400, 'rest_invalid_param', 'Invalid parameter(s): page', {
      data: { status: 400, params: { page: 'page must be greater than or equal to 1' } },
    });
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) {
    return errorReply(400, 'rest_invalid_param', 'Invalid parameter(s): per_page', {
      data: {
        status: 400,
        params: { per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)' },
      },
    });
  }
  const items = catalogue.slice((page - 1) * perPage, page * perPage).map((a) => catalogueItem(ctx, a));
  return ok(items, {
    'X-WP-Total': String(catalogue.length),
    'X-WP-TotalPages': String(Math.ceil(catalogue.length / perPage)),
  });
}

/** The check order of dashboard-facts §3.2: method, input schema, permission, execute. */
function runAbility(
  ctx: SandboxContext,
  req: SandboxRequest,
  ability: AbilityInfo,
  user: FleetUser | undefined,
): Reply {
  const method = methodFor(ability.annotations);
  if (req.method !== method) return errorReply(405, 'rest_ability_invalid_method', METHOD_MESSAGES[method]);
  const raw =
    method === 'POST' ? (isRecord(req.body) ? req.body.input : undefined) : parsePhpQuery(req.rawQuery).input;
  const checked = validate(ability.input, raw ?? {}, 'input');
  if (!checked.ok) {
    return errorReply(
      400,
      'ability_invalid_input',
      `Ability "${fullName(ctx, ability)}" has invalid input. Reason: ${checked.message}`,
    );
  }
  // A top-level `["object","null"]` schema lets `null` through; it means "all defaults".
  const input = (checked.value ?? {}) as Record<string, unknown>;
  if (!user)
    return errorReply(401, nsCode(ctx, 'permission_denied'), 'You must be logged in to access this ability.');
  if (!canManage(user))
    return errorReply(
      403,
      nsCode(ctx, 'permission_denied'),
      'You do not have permission to perform this action.',
    );
  if (ability.definitionOnly) {
    return errorReply(
      501,
      'sandbox_not_emulated',
      `The sandbox serves the definition of "${fullName(ctx, ability)}" but does not emulate it; only the site and update abilities run.`,
    );
  }
  const gated = ctx.release === 'next' && GATED_ABILITIES.has(ability.name);
  if (!ability.singleSite) {
    if (gated) return gatedUpdate(ctx, ability.name, { user, input });
    const fleetHandler = FLEET_HANDLERS[ability.name];
    if (!fleetHandler) return errorReply(500, 'rest_ability_not_found', 'Ability has no implementation.');
    return fleetHandler(ctx, { user, input });
  }
  if (ctx.release === 'next' && ability.name === 'set-ignored-updates-v1' && input.action === 'unignore') {
    return errorReply(
      400,
      nsCode(ctx, 'unignore_moved'),
      `Unignoring moved to ${ctx.ns}/unignore-site-updates-v1.`,
      {
        data: { status: 400, replacement: `${ctx.ns}/unignore-site-updates-v1` },
      },
    );
  }
  const siteHandler: SiteHandler | undefined = gated
    ? (c, call) => gatedUpdate(c, ability.name, call)
    : SITE_HANDLERS[ability.name];
  if (!siteHandler) return errorReply(500, 'rest_ability_not_found', 'Ability has no implementation.');
  const site = ctx.store.resolve(input.site_id_or_domain as string | number);
  if (!site) {
    // The ability raises 404; core rewrites permission errors to 403 and keeps the original status.
    return ctx.quirks.siteNotFound403
      ? errorReply(403, nsCode(ctx, 'site_not_found'), notFoundMessage(input.site_id_or_domain), {
          additional_data: [{ status: 404 }],
        })
      : errorReply(404, nsCode(ctx, 'site_not_found'), notFoundMessage(input.site_id_or_domain));
  }
  if (!canAccess(user, site))
    return errorReply(403, nsCode(ctx, 'access_denied'), 'You do not have permission to access this site.');
  return siteHandler(ctx, { user, input, site });
}
