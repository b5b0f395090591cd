import { randomUUID } from 'node:crypto';
import { nsCode, type SandboxContext } from '../context.js';
import { type HiddenEntry, hiddenUpdates, type KindName, type UpdateEntry } from '../entries.js';
import { type ErrorItem, runSiteUpdates } from '../executor.js';
import type { FleetSite } from '../fleet-types.js';
import { errorReply, ok, type Reply } from '../http-util.js';
import { type AbilityCall, kindsFrom, resolveSites, slugSet } from './call.js';
import { refuseUnconfirmed } from './confirmation.js';

/** Preview tokens live five minutes of the sandbox clock and are single use. */
const PREVIEW_LIFETIME_MS = 5 * 60 * 1000;
const FLAG_KEYS = new Set(['dry_run', 'confirm', 'preview_token']);

interface Selection {
  sites: FleetSite[];
  errors: ErrorItem[];
  kinds: KindName[];
  slugs: Set<string> | undefined;
  allSites: boolean;
}

/**
 * The next release's gated update abilities (dashboard-facts §9): neither `dry_run` nor
 * `confirm` → 400, both → 400, `dry_run` → a preview with a preview token, `confirm` → the run
 * with `skipped[]` and slim `updated` items. A `preview_token` sent with `confirm` must be one this
 * dashboard issued for the same ability, caller and arguments, unused and unexpired.
 */
export function gatedUpdate(
  ctx: SandboxContext,
  name: string,
  call: AbilityCall & { site?: FleetSite },
): Reply {
  const { input } = call;
  const refused = refuseUnconfirmed(ctx, input, 'Updates require', 'preview the plan');
  if (refused) return refused;
  const dryRun = input.dry_run === true;
  const selection = select(ctx, name, call);
  const binding = JSON.stringify([name, call.user.username, canonical(withoutFlags(input))]);
  if (dryRun) return preview(ctx, selection, binding);
  const token = input.preview_token;
  if (typeof token === 'string') {
    const grant = ctx.previews.get(token);
    ctx.previews.delete(token);
    if (!grant || grant.binding !== binding || ctx.clock.now() > grant.expiresAt) {
      return errorReply(
        400,
        nsCode(ctx, 'preview_token_invalid'),
        'The preview token is unknown, used, expired or was issued for other input. Call with dry_run: true again.',
      );
    }
  }
  return execute(ctx, selection);
}

function select(
  ctx: SandboxContext,
  name: string,
  { user, input, site }: AbilityCall & { site?: FleetSite },
): Selection {
  if (site) {
    const kind: KindName =
      name === 'update-site-core-v1'
        ? 'core'
        : name === 'update-site-plugins-v1'
          ? 'plugins'
          : name === 'update-site-themes-v1'
            ? 'themes'
            : 'translations';
    return { sites: [site], errors: [], kinds: [kind], slugs: slugSet(input.slugs), allSites: false };
  }
  const resolved = resolveSites(ctx, user, input.site_ids_or_domains, true);
  const allSites = !Array.isArray(input.site_ids_or_domains) || input.site_ids_or_domains.length === 0;
  if (name === 'update-all-v1') {
    const kinds = kindsFrom(input.types, ctx.quirks.emptyTypesMeansNothing);
    return { ...resolved, kinds, slugs: undefined, allSites };
  }
  return { ...resolved, kinds: kindsFrom(input.types), slugs: slugSet(input.specific_items), allSites };
}

function matching(entries: readonly UpdateEntry[], slugs: Set<string> | undefined): UpdateEntry[] {
  return slugs ? entries.filter((e) => slugs.has(e.slug)) : [...entries];
}

function skippedOf(ctx: SandboxContext, site: FleetSite, selection: Selection): HiddenEntry[] {
  const hidden = hiddenUpdates(site, ctx.store.global);
  return selection.kinds.flatMap((kind) => matching(hidden[kind], selection.slugs) as HiddenEntry[]);
}

function skippedItem(entry: HiddenEntry): Record<string, unknown> {
  return {
    site_id: entry.site_id,
    site_url: entry.site_url,
    site_name: entry.site_name,
    type: entry.type,
    slug: entry.slug,
    name: entry.name,
    from: entry.current_version,
    to: entry.new_version,
    reason: entry.reason,
  };
}

function isMajor(from: string, to: string): boolean {
  return from.split('.')[0] !== to.split('.')[0];
}

function preview(ctx: SandboxContext, selection: Selection, binding: string): Reply {
  const sites: Record<string, unknown>[] = [];
  const byItem = new Map<string, { type: string; slug: string; name: string; site_count: number }>();
  const found = new Set<string>();
  let itemCount = 0;
  let skippedCount = 0;
  let hasCore = false;
  let hasMajor = false;
  for (const site of selection.sites) {
    const visible = ctx.store.visible(site);
    const items = selection.kinds.flatMap((kind) => matching(visible[kind], selection.slugs));
    const skipped = skippedOf(ctx, site, selection);
    if (items.length === 0 && skipped.length === 0) continue;
    for (const e of [...items, ...skipped]) found.add(e.slug);
    itemCount += items.length;
    skippedCount += skipped.length;
    sites.push({
      site_id: site.id,
      site_url: site.url,
      site_name: site.name,
      items: items.map((e) => {
        const major = e.new_version !== '' && isMajor(e.current_version, e.new_version);
        hasCore ||= e.type === 'core';
        hasMajor ||= major;
        const key = `${e.type}:${e.slug}`;
        const item = byItem.get(key) ?? { type: e.type, slug: e.slug, name: e.name, site_count: 0 };
        item.site_count += 1;
        byItem.set(key, item);
        return {
          type: e.type,
          slug: e.slug,
          name: e.name,
          from: e.current_version,
          to: e.new_version,
          requested: selection.slugs?.has(e.slug) ?? false,
          flags: { core: e.type === 'core', major },
        };
      }),
      skipped: skipped.map(skippedItem),
    });
  }
  const token = randomUUID();
  ctx.previews.set(token, { binding, expiresAt: ctx.clock.now() + PREVIEW_LIFETIME_MS });
  const notFound = selection.slugs ? [...selection.slugs].filter((slug) => !found.has(slug)) : [];
  return ok({
    dry_run: true,
    would_affect: {
      sites,
      by_item: [...byItem.values()],
      summary: {
        site_count: sites.length,
        item_count: itemCount,
        skipped_count: skippedCount,
        all_sites: selection.allSites,
        queued: selection.sites.length > ctx.queueThreshold,
        truncated: false,
        has_core: hasCore,
        has_major: hasMajor,
        has_unknown_version: false,
        requested_not_found: notFound,
      },
    },
    count: itemCount,
    warnings: notFound.map((slug) => `Requested item ${slug} is not pending on the selected sites.`),
    errors: selection.errors,
    preview_token: token,
  });
}

function execute(ctx: SandboxContext, selection: Selection): Reply {
  const skipped = selection.sites.flatMap((site) => skippedOf(ctx, site, selection).map(skippedItem));
  if (selection.sites.length > ctx.queueThreshold) {
    const jobId = ctx.newJobId();
    ctx.jobs.enqueue(
      selection.sites.map((site) => ({
        siteId: site.id,
        kinds: selection.kinds,
        slugs: selection.slugs ? [...selection.slugs] : null,
      })),
      jobId,
    );
    return ok({
      dry_run: false,
      queued: true,
      job_id: jobId,
      status_url: `${ctx.baseUrl}/wp-json/${ctx.ns}/v2/batch/jobs/${jobId}`,
      updates_queued: selection.sites.length,
      skipped,
      errors: selection.errors,
    });
  }
  const updated: Record<string, unknown>[] = [];
  const errors: ErrorItem[] = [...selection.errors];
  let sitesUpdated = 0;
  for (const site of selection.sites) {
    const result = runSiteUpdates(ctx, site, { kinds: selection.kinds, slugs: selection.slugs });
    const site_name = site.name;
    if (result.siteError) errors.push({ ...result.siteError, site_name });
    for (const e of result.errors) errors.push({ ...e, site_name });
    for (const e of result.updated)
      updated.push({ site_id: e.site_id, type: e.type, slug: e.slug, success: true });
    if (result.updated.length > 0) sitesUpdated += 1;
  }
  return ok({
    dry_run: false,
    skipped,
    updated,
    errors: errors.map(orderError),
    summary: {
      total_skipped: skipped.length,
      total_updated: updated.length,
      total_errors: errors.length,
      sites_updated: sitesUpdated,
    },
  });
}

function orderError({ site_id, site_url, site_name, type, slug, code, message }: ErrorItem): ErrorItem {
  return { site_id, site_url, site_name: site_name ?? '', type, slug, code, message };
}

function withoutFlags(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([key]) => !FLAG_KEYS.has(key)));
}

/** Key-sorted copy, so the binding does not depend on the order the caller wrote the keys in. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}
