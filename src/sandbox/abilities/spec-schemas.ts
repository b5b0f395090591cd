import type { Schema } from './validate.js';

/**
 * Input and output schemas of the interface spec (spec/dashboard-interface.md §4.2) for the
 * abilities whose spec shape differs from release 6.1; every other ability publishes its shipped
 * schemas in profile `spec` too.
 */

const INT: Schema = { type: 'integer' };
const STR: Schema = { type: 'string' };
const BOOL: Schema = { type: 'boolean' };
const URL: Schema = { type: 'string', format: 'uri' };

function object(properties: Record<string, Schema>, required: string[] = [], closed = true): Schema {
  return closed
    ? { type: 'object', properties, required, additionalProperties: false }
    : { type: 'object', properties, required };
}

const SITES: Schema = { type: 'array', items: { type: ['integer', 'string'] }, default: [] };
const SITE: Schema = { type: ['integer', 'string'] };
const TYPES: Schema = {
  type: 'array',
  items: { type: 'string', enum: ['core', 'plugins', 'themes', 'translations'] },
  default: [],
};
const SLUGS: Schema = { type: 'array', items: { type: 'string' }, default: [] };
const ACTION: Schema = { type: 'string', enum: ['add', 'remove'] };

export const SPEC_INPUTS: Readonly<Record<string, Schema>> = {
  'list-updates-v1': object({
    site_ids_or_domains: SITES,
    types: TYPES,
    page: { type: 'integer', minimum: 1, default: 1 },
    per_page: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
  }),
  'run-updates-v1': object({ site_ids_or_domains: SITES, types: TYPES, specific_items: SLUGS }),
  'get-site-updates-v1': object({ site_id_or_domain: SITE, types: TYPES }, ['site_id_or_domain']),
  'update-site-translations-v1': object({ site_id_or_domain: SITE }, ['site_id_or_domain']),
  'list-ignored-updates-v1': object({}),
  'ignore-site-core-v1': object({ site_id_or_domain: SITE, action: ACTION }, ['site_id_or_domain', 'action']),
  'ignore-site-plugins-v1': object(
    { site_id_or_domain: SITE, action: ACTION, slugs: { type: 'array', items: STR } },
    ['site_id_or_domain', 'action', 'slugs'],
  ),
  'ignore-site-themes-v1': object(
    { site_id_or_domain: SITE, action: ACTION, slugs: { type: 'array', items: STR } },
    ['site_id_or_domain', 'action', 'slugs'],
  ),
  'update-all-v1': object({ site_ids_or_domains: SITES }),
};

const SUMMARY = object({ core: INT, plugins: INT, themes: INT, translations: INT, total: INT }, [
  'core',
  'plugins',
  'themes',
  'translations',
  'total',
]);
const KIND_TYPE: Schema = { type: 'string', enum: ['core', 'plugin', 'theme', 'translation'] };
const ENTRY = object(
  {
    site_id: INT,
    site_url: URL,
    site_name: STR,
    type: KIND_TYPE,
    slug: STR,
    name: STR,
    current_version: STR,
    new_version: STR,
  },
  ['site_id', 'site_url', 'site_name', 'type', 'slug', 'name', 'current_version', 'new_version'],
);
const SITE_ENTRY = object({ type: KIND_TYPE, slug: STR, name: STR, current_version: STR, new_version: STR }, [
  'type',
  'slug',
  'name',
  'current_version',
  'new_version',
]);
const ERROR = object(
  { site_id: INT, site_url: URL, site_name: STR, type: STR, slug: STR, code: STR, message: STR },
  ['site_id', 'site_url', 'type', 'slug', 'code', 'message'],
);
const ERRORS: Schema = { type: 'array', items: ERROR };
const SLIM_UPDATED = object({ slug: STR, name: STR, old_version: STR, new_version: STR }, [
  'slug',
  'name',
  'old_version',
  'new_version',
]);
const IGNORED = object(
  {
    site_id: INT,
    site_url: URL,
    site_name: STR,
    type: { type: 'string', enum: ['core', 'plugin', 'theme'] },
    slug: STR,
    name: STR,
    ignored_version: STR,
  },
  ['site_id', 'site_url', 'site_name', 'type', 'slug', 'name', 'ignored_version'],
);
const RUN_SUMMARY = object({ total_updated: INT, total_errors: INT, sites_updated: INT }, [
  'total_updated',
  'total_errors',
  'sites_updated',
]);
const QUEUED = object(
  {
    queued: { type: 'boolean', const: true },
    job_id: STR,
    status_url: URL,
    updates_queued: INT,
    errors: ERRORS,
  },
  ['queued', 'job_id', 'status_url', 'updates_queued', 'errors'],
);

function ignoreResult(listKey: string, list: Schema): Schema {
  return object({ success: BOOL, site_id: INT, action: ACTION, [listKey]: list }, [
    'success',
    'site_id',
    'action',
    listKey,
  ]);
}

export const SPEC_OUTPUTS: Readonly<Record<string, Schema>> = {
  'list-updates-v1': object(
    { updates: { type: 'array', items: ENTRY }, summary: SUMMARY, page: INT, per_page: INT, total: INT },
    ['updates', 'summary', 'page', 'per_page', 'total'],
  ),
  'get-site-updates-v1': object(
    {
      site_id: INT,
      site_url: URL,
      site_name: STR,
      updates: { type: 'array', items: SITE_ENTRY },
      summary: SUMMARY,
    },
    ['site_id', 'site_url', 'site_name', 'updates', 'summary'],
  ),
  'update-site-core-v1': object(
    { site_id: INT, site_url: URL, updated: BOOL, old_version: STR, new_version: STR },
    ['site_id', 'site_url', 'updated', 'old_version', 'new_version'],
  ),
  'update-site-plugins-v1': object(
    {
      site_id: INT,
      site_url: URL,
      updated: { type: 'array', items: SLIM_UPDATED },
      errors: ERRORS,
      total_updated: INT,
    },
    ['site_id', 'site_url', 'updated', 'errors', 'total_updated'],
  ),
  'update-site-themes-v1': object(
    {
      site_id: INT,
      site_url: URL,
      updated: { type: 'array', items: SLIM_UPDATED },
      errors: ERRORS,
      total_updated: INT,
    },
    ['site_id', 'site_url', 'updated', 'errors', 'total_updated'],
  ),
  'update-site-translations-v1': object(
    { site_id: INT, site_url: URL, updated: BOOL, translations_updated: INT },
    ['site_id', 'site_url', 'updated', 'translations_updated'],
  ),
  'list-ignored-updates-v1': object({ ignored: { type: 'array', items: IGNORED }, total: INT }, [
    'ignored',
    'total',
  ]),
  'ignore-site-core-v1': ignoreResult('core_ignored', BOOL),
  'ignore-site-plugins-v1': ignoreResult('plugins_ignored', { type: 'array', items: STR }),
  'ignore-site-themes-v1': ignoreResult('themes_ignored', { type: 'array', items: STR }),
  'update-all-v1': {
    type: 'object',
    oneOf: [
      object(
        {
          updated: object({ core: INT, plugins: INT, themes: INT, translations: INT }, [
            'core',
            'plugins',
            'themes',
            'translations',
          ]),
          errors: ERRORS,
          summary: RUN_SUMMARY,
        },
        ['updated', 'errors', 'summary'],
      ),
      QUEUED,
    ],
  },
};
