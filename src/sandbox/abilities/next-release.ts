import type { SandboxContext } from '../context.js';
import type { AbilityInfo } from './ability-info.js';
import type { Schema } from './validate.js';

/**
 * The next release's catalogue (dashboard-facts §9, expected and unconfirmed): the six update
 * abilities become destructive (still POST) and gain `dry_run`, `confirm` and `preview_token`;
 * unignoring moves to `unignore-site-updates-v1` (DELETE).
 */
export const GATED_ABILITIES: ReadonlySet<string> = new Set([
  'run-updates-v1',
  'update-all-v1',
  'update-site-core-v1',
  'update-site-plugins-v1',
  'update-site-themes-v1',
  'update-site-translations-v1',
]);

export const UNIGNORE_NAME = 'unignore-site-updates-v1';

const INT: Schema = { type: 'integer' };
const STR: Schema = { type: 'string' };
const BOOL: Schema = { type: 'boolean' };
const URL: Schema = { type: 'string', format: 'uri' };
const FLAG_INPUTS: Record<string, Schema> = {
  dry_run: { type: 'boolean', default: false },
  confirm: { type: 'boolean', default: false },
  preview_token: { type: ['string', 'null'] },
};

function closed(properties: Record<string, Schema>, required: string[]): Schema {
  return { type: 'object', properties, required };
}

const ERRORS: Schema = {
  type: 'array',
  items: closed(
    { site_id: INT, site_url: URL, site_name: STR, type: STR, slug: STR, code: STR, message: STR },
    ['site_id', 'site_url', 'type', 'slug', 'code', 'message'],
  ),
};
const ITEM_BASE = { type: STR, slug: STR, name: STR, from: STR, to: STR };
const SKIPPED_ITEM = closed(
  {
    site_id: INT,
    site_url: URL,
    site_name: STR,
    ...ITEM_BASE,
    reason: { type: 'string', enum: ['ignored_site', 'ignored_global', 'ignored_site_flag'] },
  },
  ['site_id', 'type', 'slug', 'reason'],
);
const SKIPPED: Schema = { type: 'array', items: SKIPPED_ITEM };

const PREVIEW = closed(
  {
    dry_run: { type: 'boolean', const: true },
    would_affect: closed(
      {
        sites: {
          type: 'array',
          items: closed(
            {
              site_id: INT,
              site_url: URL,
              site_name: STR,
              items: {
                type: 'array',
                items: closed(
                  {
                    ...ITEM_BASE,
                    requested: BOOL,
                    flags: closed({ core: BOOL, major: BOOL }, ['core', 'major']),
                  },
                  ['type', 'slug', 'name', 'from', 'to', 'requested', 'flags'],
                ),
              },
              skipped: SKIPPED,
            },
            ['site_id', 'site_url', 'site_name', 'items', 'skipped'],
          ),
        },
        by_item: {
          type: 'array',
          items: closed({ type: STR, slug: STR, name: STR, site_count: INT }, ['type', 'slug', 'site_count']),
        },
        summary: closed(
          {
            site_count: INT,
            item_count: INT,
            skipped_count: INT,
            all_sites: BOOL,
            queued: BOOL,
            truncated: BOOL,
            has_core: BOOL,
            has_major: BOOL,
            has_unknown_version: BOOL,
            requested_not_found: { type: 'array', items: STR },
          },
          ['site_count', 'item_count', 'skipped_count', 'all_sites', 'queued', 'truncated'],
        ),
      },
      ['sites', 'by_item', 'summary'],
    ),
    count: INT,
    warnings: { type: 'array', items: STR },
    errors: ERRORS,
    preview_token: { type: ['string', 'null'] },
  },
  ['dry_run', 'would_affect', 'count', 'warnings', 'errors'],
);

const CONFIRMED = closed(
  {
    dry_run: { type: 'boolean', const: false },
    skipped: SKIPPED,
    updated: {
      type: 'array',
      items: closed({ site_id: INT, type: STR, slug: STR, success: BOOL }, [
        'site_id',
        'type',
        'slug',
        'success',
      ]),
    },
    errors: ERRORS,
    summary: closed({ total_skipped: INT, total_updated: INT, total_errors: INT, sites_updated: INT }, [
      'total_skipped',
      'total_updated',
      'total_errors',
      'sites_updated',
    ]),
  },
  ['dry_run', 'skipped', 'updated', 'errors', 'summary'],
);

const QUEUED = closed(
  {
    dry_run: { type: 'boolean', const: false },
    queued: { type: 'boolean', const: true },
    job_id: STR,
    status_url: URL,
    updates_queued: INT,
    skipped: SKIPPED,
    errors: ERRORS,
  },
  ['dry_run', 'queued', 'job_id', 'status_url', 'updates_queued', 'errors'],
);

const GATED_OUTPUT: Schema = { type: 'object', oneOf: [PREVIEW, CONFIRMED, QUEUED] };

/** An ability of the 6.1 catalogue as the next release publishes it. */
export function nextReleaseAbility(info: AbilityInfo): AbilityInfo {
  if (!GATED_ABILITIES.has(info.name)) return info;
  return {
    ...info,
    input: { ...info.input, properties: { ...info.input.properties, ...FLAG_INPUTS } },
    output: GATED_OUTPUT,
    annotations: {
      ...info.annotations,
      destructive: true,
      idempotent: false,
      instructions: `${info.annotations.instructions} Call with dry_run: true first, then confirm: true with the preview_token.`,
    },
  };
}

const HOLD = closed(
  {
    type: STR,
    slug: STR,
    name: STR,
    held: BOOL,
    still_held_by: { type: 'array', items: { type: 'string', enum: ['global', 'site_flag'] } },
    pending: { oneOf: [closed({ from: STR, to: STR }, ['from', 'to']), { type: 'null' }] },
  },
  ['type', 'slug', 'held', 'still_held_by', 'pending'],
);

/** `unignore-site-updates-v1` (destructive + idempotent → DELETE). */
export function unignoreAbility(ctx: SandboxContext): AbilityInfo {
  return {
    name: UNIGNORE_NAME,
    label: 'Unignore site updates',
    description: 'Removes per-site ignores of core, plugin or theme updates on one site.',
    category: `${ctx.ns}-updates`,
    input: {
      type: 'object',
      properties: {
        site_id_or_domain: { type: ['integer', 'string'] },
        type: { type: 'string', enum: ['core', 'plugin', 'theme'] },
        slugs: { type: 'array', items: { type: 'string' }, minItems: 1 },
        dry_run: { type: 'boolean', default: false },
        confirm: { type: 'boolean', default: false },
      },
      required: ['site_id_or_domain', 'type', 'slugs'],
      additionalProperties: false,
    },
    output: {
      type: 'object',
      oneOf: [
        closed(
          {
            dry_run: { type: 'boolean', const: true },
            would_affect: closed(
              { site_id: INT, site_url: URL, site_name: STR, holds: { type: 'array', items: HOLD } },
              ['site_id', 'site_url', 'site_name', 'holds'],
            ),
            count: INT,
            warnings: { type: 'array', items: STR },
            errors: ERRORS,
          },
          ['dry_run', 'would_affect', 'count', 'warnings', 'errors'],
        ),
        closed(
          {
            dry_run: { type: 'boolean', const: false },
            removed: { type: 'array', items: STR },
            not_held: { type: 'array', items: STR },
            count: INT,
          },
          ['dry_run', 'removed', 'not_held', 'count'],
        ),
      ],
    },
    annotations: {
      readonly: false,
      destructive: true,
      idempotent: true,
      instructions: 'Call with dry_run: true to see what holds each item, then with confirm: true.',
    },
    singleSite: true,
  };
}
