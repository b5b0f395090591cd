import type { SandboxContext } from '../context.js';
import type { AbilityInfo, Annotations } from './ability-info.js';
import { nextReleaseAbility, unignoreAbility } from './next-release.js';
import { SHIPPED_ABILITIES, SHIPPED_CATALOGUE, type ShippedAbility } from './shipped-catalogue.js';
import { SPEC_INPUTS, SPEC_OUTPUTS } from './spec-schemas.js';

export type { AbilityInfo, Annotations } from './ability-info.js';

/** Texts of one ability, written for the sandbox (the shipped catalogue's texts are not copied). */
interface AbilityTexts {
  label: string;
  description: string;
  instructions: string;
  singleSite?: boolean;
}

/** The abilities the sandbox serves, in catalogue order, with texts of our own. */
export const ABILITY_TEXTS: Readonly<Record<string, AbilityTexts>> = {
  'list-sites-v1': {
    label: 'List sites',
    description: 'Lists child sites with their connection status.',
    instructions: 'Page with page/per_page (at most 100) until total is reached.',
  },
  'get-site-v1': {
    label: 'Get site',
    description: 'Shows one child site, optionally with update statistics.',
    instructions: 'Pass include_stats: true for pending update counts.',
    singleSite: true,
  },
  'count-sites-v1': {
    label: 'Count sites',
    description: 'Counts child sites, optionally by status or client.',
    instructions: 'Use before paging list-sites-v1 over a large fleet.',
  },
  'get-sites-basic-v1': {
    label: 'List sites (basic)',
    description: 'Lists child sites with ID, URL and name only.',
    instructions: 'The lightest way to map site IDs to URLs; page with page/per_page.',
  },
  'get-site-plugins-v1': {
    label: 'Get site plugins',
    description: 'Lists the plugins installed on one site with their pending versions.',
    instructions: 'update_version shows a pending update even when an ignore hides it from list-updates-v1.',
    singleSite: true,
  },
  'get-site-themes-v1': {
    label: 'Get site themes',
    description: 'Lists the themes installed on one site with their pending versions.',
    instructions: 'update_version shows a pending update even when an ignore hides it from list-updates-v1.',
    singleSite: true,
  },
  'sync-sites-v1': {
    label: 'Sync sites',
    description: 'Re-reads sites so the dashboard lists what they have now.',
    instructions:
      'Listings show what the last sync saw; sync after changes made outside the dashboard. More than 200 sites are queued.',
  },
  'check-site-v1': {
    label: 'Check site',
    description: 'Checks whether one site answers.',
    instructions: 'Reports reachability and the HTTP status of the site.',
    singleSite: true,
  },
  'list-updates-v1': {
    label: 'List updates',
    description: 'Lists pending updates across sites.',
    instructions: 'Page with per_page up to 200 until total is reached; ignored items are not listed.',
  },
  'run-updates-v1': {
    label: 'Run updates',
    description: 'Runs pending updates on sites.',
    instructions:
      'Narrow with site_ids_or_domains, types and specific_items; more than 200 sites are queued.',
  },
  'get-site-updates-v1': {
    label: 'Get site updates',
    description: 'Lists pending updates of one site.',
    instructions: 'types absent means all four kinds.',
    singleSite: true,
  },
  'update-site-core-v1': {
    label: 'Update site core',
    description: 'Updates WordPress core on one site.',
    instructions: 'Fails with no_updates when core is current.',
    singleSite: true,
  },
  'update-site-plugins-v1': {
    label: 'Update site plugins',
    description: 'Updates plugins on one site.',
    instructions: 'slugs empty or absent runs every pending plugin; slugs not pending are skipped.',
    singleSite: true,
  },
  'update-site-themes-v1': {
    label: 'Update site themes',
    description: 'Updates themes on one site.',
    instructions: 'slugs empty or absent runs every pending theme; slugs not pending are skipped.',
    singleSite: true,
  },
  'update-site-translations-v1': {
    label: 'Update site translations',
    description: 'Updates translations on one site.',
    instructions: 'slugs are plugin or theme folders, or default for core.',
    singleSite: true,
  },
  'list-ignored-updates-v1': {
    label: 'List ignored updates',
    description: 'Lists ignored updates per site.',
    instructions: 'Global ignores repeat on every site; site-wide flags are shown by site records only.',
  },
  'set-ignored-updates-v1': {
    label: 'Set ignored updates',
    description: 'Ignores or unignores one item on one site.',
    instructions: 'For core use slug wordpress.',
    singleSite: true,
  },
  'ignore-site-core-v1': {
    label: 'Ignore site core',
    description: 'Ignores or unignores core updates on one site.',
    instructions: 'remove clears the per-site option, never the site-wide flag.',
    singleSite: true,
  },
  'ignore-site-plugins-v1': {
    label: 'Ignore site plugins',
    description: 'Ignores or unignores plugin updates on one site.',
    instructions: 'Ignores all versions of each slug.',
    singleSite: true,
  },
  'ignore-site-themes-v1': {
    label: 'Ignore site themes',
    description: 'Ignores or unignores theme updates on one site.',
    instructions: 'Ignores all versions of each slug.',
    singleSite: true,
  },
  'update-all-v1': {
    label: 'Update all',
    description: 'Applies every available update, including core.',
    instructions: 'types absent means all four kinds; more than 200 sites are queued.',
  },
  'list-clients-v1': {
    label: 'List clients',
    description: 'Lists the clients sites are assigned to.',
    instructions:
      "Page with page/per_page (at most 100) until total is reached; list-sites-v1 carries each site's client_id.",
  },
  'get-client-sites-v1': {
    label: 'Get client sites',
    description: 'Lists the sites of one client.',
    instructions: 'Pass the client ID or email; the answer is not paged.',
  },
  'list-tags-v1': {
    label: 'List tags',
    description: 'Lists the site tags with the IDs of their sites.',
    instructions:
      "Page with page/per_page (at most 100) until total is reached; sites_ids lists each tag's sites.",
  },
  'get-tag-sites-v1': {
    label: 'Get tag sites',
    description: 'Lists the sites of one tag.',
    instructions: 'Page with page/per_page (at most 100) until total is reached.',
  },
  'get-batch-job-status-v1': {
    label: 'Get batch job status',
    description: 'Reports the progress of a queued job.',
    instructions: 'Poll with the job_id a queued call returned; status_url may not exist.',
  },
};

/**
 * The catalogue of the profile: the shipped 6.1 schemas (`shippedInputSchemas`,
 * `abilityShippedOutputs`), the spec's where those switches are off, the next release's changes
 * (dashboard-facts §9) in profile `next`. Every ability publishes full input and output schemas.
 */
export function abilityCatalogue(ctx: SandboxContext): AbilityInfo[] {
  const list = Object.entries(ABILITY_TEXTS).map(([name, texts]) =>
    profileAbility(ctx, name, SHIPPED_CATALOGUE.get(name) as ShippedAbility, texts),
  );
  if (ctx.release === 'next') list.push(unignoreAbility(ctx));
  if (ctx.quirks.fullShippedCatalogue)
    list.push(
      ...SHIPPED_ABILITIES.filter((a) => a.namespace !== undefined || !(a.name in ABILITY_TEXTS)).map((a) =>
        definitionOnly(ctx, a),
      ),
    );
  return list;
}

function definitionOnly(ctx: SandboxContext, shipped: ShippedAbility): AbilityInfo {
  const info: AbilityInfo = {
    name: shipped.name,
    label: shipped.name,
    description: 'Served as a definition only: the sandbox does not emulate it.',
    category: shipped.namespace ? shipped.category : `${ctx.ns}-${shipped.category}`,
    input: shipped.input_schema,
    output: shipped.output_schema,
    annotations: { ...shipped.annotations, instructions: '' },
    singleSite: false,
    definitionOnly: true,
  };
  if (shipped.namespace) info.namespace = shipped.namespace;
  return info;
}

/** The ability's full name as the catalogue and the run route spell it. */
export function fullName(ctx: SandboxContext, ability: AbilityInfo): string {
  return `${ability.namespace ?? ctx.ns}/${ability.name}`;
}

function profileAbility(
  ctx: SandboxContext,
  name: string,
  shipped: ShippedAbility,
  texts: AbilityTexts,
): AbilityInfo {
  const q = ctx.quirks;
  let input = q.shippedInputSchemas ? shipped.input_schema : (SPEC_INPUTS[name] ?? shipped.input_schema);
  if (name === 'list-ignored-updates-v1' && !q.ignoredListingNoPaging) {
    input = {
      ...input,
      properties: {
        ...input.properties,
        page: { type: 'integer', minimum: 1, default: 1 },
        per_page: { type: 'integer', minimum: 1, default: 50 },
      },
    };
  }
  let annotations = { ...shipped.annotations, instructions: texts.instructions };
  if (name === 'get-site-updates-v1' && !q.getSiteUpdatesIsGet)
    annotations = { ...annotations, readonly: false };
  if (name === 'update-all-v1' && !q.updateAllNonDestructive)
    annotations = { ...annotations, destructive: true };
  const info: AbilityInfo = {
    name,
    label: texts.label,
    description: texts.description,
    category: `${ctx.ns}-${shipped.category}`,
    input,
    output: q.abilityShippedOutputs ? shipped.output_schema : (SPEC_OUTPUTS[name] ?? shipped.output_schema),
    annotations,
    singleSite: texts.singleSite === true,
  };
  return ctx.release === 'next' ? nextReleaseAbility(info) : info;
}

/**
 * The categories route's items, one per category the catalogue uses; with the whole shipped
 * catalogue also WordPress core's `user` (registered with no ability of its own).
 */
export function categoryItems(ctx: SandboxContext, catalogue: AbilityInfo[]): Record<string, unknown>[] {
  const labels: Record<string, string> = {
    sites: 'Sites',
    updates: 'Updates',
    clients: 'Clients',
    tags: 'Tags',
    batch: 'Batch jobs',
  };
  const slugs = [...new Set(catalogue.map((a) => a.category))];
  if (ctx.quirks.fullShippedCatalogue && !slugs.includes('user')) slugs.splice(1, 0, 'user');
  return slugs.map((slug) => {
    const short = slug.startsWith(`${ctx.ns}-`) ? slug.slice(ctx.ns.length + 1) : slug;
    return {
      slug,
      label: labels[short] ?? short,
      description: `Abilities for ${(labels[short] ?? short).toLowerCase()}.`,
      // PHP's json_encode writes the empty meta array as `[]`.
      meta: ctx.quirks.emptyMapAsArray ? [] : {},
    };
  });
}

/** The HTTP method the annotations impose (dashboard-facts §1.1). */
export function methodFor(annotations: Annotations): 'GET' | 'POST' | 'DELETE' {
  if (annotations.readonly) return 'GET';
  return annotations.destructive && annotations.idempotent ? 'DELETE' : 'POST';
}

/** A catalogue item as `GET /abilities` sends it. */
export function catalogueItem(ctx: SandboxContext, ability: AbilityInfo): Record<string, unknown> {
  return {
    name: fullName(ctx, ability),
    label: ability.label,
    description: ability.description,
    category: ability.category,
    input_schema: ability.input,
    output_schema: ability.output,
    meta: { annotations: ability.annotations, show_in_rest: true },
  };
}
