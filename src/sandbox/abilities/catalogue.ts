import type { SandboxContext } from '../context.js';
import type { Schema } from './validate.js';

export interface Annotations {
  readonly: boolean;
  destructive: boolean;
  idempotent: boolean;
  instructions: string;
}

/** Catalogue data of one ability; `name` is without the namespace. */
export interface AbilityInfo {
  name: string;
  label: string;
  description: string;
  category: string;
  input: Schema;
  output: Schema;
  annotations: Annotations;
  /** Single-site abilities resolve `site_id_or_domain` inside the permission check. */
  singleSite: boolean;
}

const SITES: Schema = {
  type: 'array',
  items: { type: ['integer', 'string'] },
  default: [],
  description: 'Site IDs or domains; empty means all sites.',
};
const SITE: Schema = { type: ['integer', 'string'], description: 'Site ID or domain.' };
const TYPES: Schema = {
  type: 'array',
  items: { type: 'string', enum: ['core', 'plugins', 'themes', 'translations'] },
  default: [],
};
const SLUGS: Schema = { type: 'array', items: { type: 'string' }, default: [] };
const ADD_REMOVE: Schema = { type: 'string', enum: ['add', 'remove'], default: 'add' };
const OBJECT: Schema = { type: 'object' };

function object(properties: Record<string, Schema>, required: string[] = []): Schema {
  return { type: 'object', properties, required, additionalProperties: false };
}

const READ: Annotations = { readonly: true, destructive: false, idempotent: true, instructions: '' };
const WRITE: Annotations = { readonly: false, destructive: false, idempotent: false, instructions: '' };
const IDEMPOTENT: Annotations = { readonly: false, destructive: false, idempotent: true, instructions: '' };

/**
 * The 13 update abilities plus list-sites and job status, with the input schemas of the
 * profile: the shipped 6.1 schemas when `shippedInputSchemas` is on, the spec's otherwise.
 */
export function abilityCatalogue(ctx: SandboxContext): AbilityInfo[] {
  const q = ctx.quirks;
  const shipped = q.shippedInputSchemas;
  const action = shipped ? ADD_REMOVE : { type: 'string', enum: ['add', 'remove'] };
  const actionRequired = shipped ? [] : ['action'];
  const ignoredInput: Record<string, Schema> = shipped
    ? {
        site_ids_or_domains: SITES,
        types: { type: 'array', items: { type: 'string', enum: ['core', 'plugins', 'themes'] }, default: [] },
      }
    : {};
  if (!q.ignoredListingNoPaging) {
    ignoredInput.page = { type: 'integer', minimum: 1, default: 1 };
    ignoredInput.per_page = { type: 'integer', minimum: 1, default: 50 };
  }
  const info = (
    name: string,
    label: string,
    description: string,
    input: Schema,
    annotations: Annotations,
    singleSite = false,
    category = `${ctx.ns}-updates`,
  ): AbilityInfo => ({ name, label, description, category, input, output: OBJECT, annotations, singleSite });
  return [
    info(
      'list-sites-v1',
      'List sites',
      'Lists child sites with their status.',
      object({
        page: { type: 'integer', minimum: 1, default: 1 },
        per_page: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
        status: { type: 'string', enum: ['any', 'connected', 'disconnected', 'suspended'], default: 'any' },
        search: { type: 'string', default: '' },
        client_id: { type: 'integer' },
        tag_id: { type: 'integer' },
      }),
      READ,
      false,
      `${ctx.ns}-sites`,
    ),
    info(
      'list-updates-v1',
      'List updates',
      'Lists pending updates across sites.',
      object({
        site_ids_or_domains: SITES,
        types: TYPES,
        page: { type: 'integer', minimum: 1, default: 1 },
        per_page: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
      }),
      READ,
    ),
    info(
      'run-updates-v1',
      'Run updates',
      'Runs pending updates on sites.',
      object({ site_ids_or_domains: SITES, types: TYPES, specific_items: SLUGS }),
      WRITE,
    ),
    info(
      'get-site-updates-v1',
      'Get site updates',
      'Lists pending updates of one site.',
      object({ site_id_or_domain: SITE, types: TYPES }, ['site_id_or_domain']),
      q.getSiteUpdatesIsGet ? READ : IDEMPOTENT,
      true,
    ),
    info(
      'update-site-core-v1',
      'Update site core',
      'Updates WordPress core on one site.',
      object({ site_id_or_domain: SITE }, ['site_id_or_domain']),
      WRITE,
      true,
    ),
    info(
      'update-site-plugins-v1',
      'Update site plugins',
      'Updates plugins on one site.',
      object({ site_id_or_domain: SITE, slugs: SLUGS }, ['site_id_or_domain']),
      WRITE,
      true,
    ),
    info(
      'update-site-themes-v1',
      'Update site themes',
      'Updates themes on one site.',
      object({ site_id_or_domain: SITE, slugs: SLUGS }, ['site_id_or_domain']),
      WRITE,
      true,
    ),
    info(
      'update-site-translations-v1',
      'Update site translations',
      'Updates translations on one site.',
      object(shipped ? { site_id_or_domain: SITE, slugs: SLUGS } : { site_id_or_domain: SITE }, [
        'site_id_or_domain',
      ]),
      WRITE,
      true,
    ),
    info(
      'list-ignored-updates-v1',
      'List ignored updates',
      'Lists ignored updates.',
      object(ignoredInput),
      READ,
    ),
    info(
      'set-ignored-updates-v1',
      'Set ignored updates',
      'Ignores or unignores one item on one site.',
      object(
        {
          action: { type: 'string', enum: ['ignore', 'unignore'] },
          site_id_or_domain: SITE,
          type: { type: 'string', enum: ['core', 'plugin', 'theme'] },
          slug: { type: 'string' },
        },
        ['action', 'site_id_or_domain', 'type', 'slug'],
      ),
      IDEMPOTENT,
      true,
    ),
    info(
      'ignore-site-core-v1',
      'Ignore site core',
      'Ignores core updates on one site.',
      object({ site_id_or_domain: SITE, action }, ['site_id_or_domain', ...actionRequired]),
      IDEMPOTENT,
      true,
    ),
    info(
      'ignore-site-plugins-v1',
      'Ignore site plugins',
      'Ignores plugin updates on one site.',
      object({ site_id_or_domain: SITE, action, slugs: { type: 'array', items: { type: 'string' } } }, [
        'site_id_or_domain',
        'slugs',
        ...actionRequired,
      ]),
      IDEMPOTENT,
      true,
    ),
    info(
      'ignore-site-themes-v1',
      'Ignore site themes',
      'Ignores theme updates on one site.',
      object({ site_id_or_domain: SITE, action, slugs: { type: 'array', items: { type: 'string' } } }, [
        'site_id_or_domain',
        'slugs',
        ...actionRequired,
      ]),
      IDEMPOTENT,
      true,
    ),
    info(
      'update-all-v1',
      'Update all',
      'Applies every available update, including core.',
      object(shipped ? { site_ids_or_domains: SITES, types: TYPES } : { site_ids_or_domains: SITES }),
      q.updateAllNonDestructive ? WRITE : { ...WRITE, destructive: true },
    ),
    info(
      'get-batch-job-status-v1',
      'Get batch job status',
      'Reports the progress of a queued job.',
      object({ job_id: { type: 'string', description: 'Job ID such as update_<uuid>.' } }, ['job_id']),
      READ,
      false,
      `${ctx.ns}-sites`,
    ),
  ];
}

/** The HTTP method the annotations impose (dashboard-facts §1.1). */
export function methodFor(annotations: Annotations): 'GET' | 'POST' | 'DELETE' {
  if (annotations.readonly) return 'GET';
  return annotations.destructive && annotations.idempotent ? 'DELETE' : 'POST';
}

/** A catalogue item as `GET /abilities` sends it. */
export function catalogueItem(ctx: SandboxContext, ability: AbilityInfo): Record<string, unknown> {
  return {
    name: `${ctx.ns}/${ability.name}`,
    label: ability.label,
    description: ability.description,
    category: ability.category,
    input_schema: ability.input,
    output_schema: ability.output,
    meta: { annotations: ability.annotations, show_in_rest: true },
  };
}
