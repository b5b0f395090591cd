import { SvcError } from '../../errors.js';
import { dashboardSiteCode, type ItemKind } from '../../types.js';
import type { RunUpdatesRequest, RunUpdatesResult, UpdateError } from '../client.js';
import type { Connection } from '../connection.js';
import { parseRestCoreRun, parseRestKindRun, type RestKindRun } from '../wire/rest-run.js';
import { restCall } from './call.js';
import { syncSites } from './sync.js';

/** REST route segment per kind; core has no `slug` parameter. */
const ROUTE: Record<ItemKind, string> = {
  core: 'wp',
  plugin: 'plugins',
  theme: 'themes',
  translation: 'translations',
};
const KIND_ORDER: readonly ItemKind[] = ['core', 'plugin', 'theme', 'translation'];

/**
 * Runs exactly the requested items through the REST v2 per-site routes (spec §4.1 "Run
 * updates"): `/updates/{id}/update/wp` for core and `/updates/{id}/update/{kind}` with `slug`
 * as a comma list for the rest. Never the update-everything routes, and never a call without
 * `slug` (the spec reads that as "all pending"), so no unplanned item is touched. Per-item and
 * per-site failures are results. A run-wide failure (credentials, rate limits, network) stops
 * that site's remaining calls; it is thrown only when nothing ran at all, because the other
 * sites' calls really happen and their results must reach the journal. These routes run
 * synchronously: nothing is queued.
 */
export async function runUpdatesViaRest(
  conn: Connection,
  request: RunUpdatesRequest,
  signal?: AbortSignal,
): Promise<RunUpdatesResult> {
  if (request.siteIds.length === 0 || request.items.length === 0) {
    throw new SvcError('INTERNAL', 'runUpdates needs at least one site and one item');
  }
  const slugsByKind = new Map<ItemKind, string[]>();
  for (const kind of KIND_ORDER) {
    const slugs = [...new Set(request.items.filter((i) => i.kind === kind).map((i) => i.slug))];
    if (slugs.length > 0) slugsByKind.set(kind, slugs);
  }
  const perSite = await Promise.all(
    [...new Set(request.siteIds)].map((siteId) => runOnSite(conn, siteId, slugsByKind, signal)),
  );
  const updated = perSite.flatMap((site) => site.updated);
  const stopped = perSite.find((site) => site.stoppedBy !== undefined)?.stoppedBy;
  if (stopped !== undefined && updated.length === 0) throw stopped;
  await syncTouched(conn, updated, signal);
  return { updated, errors: perSite.flatMap((site) => site.errors) };
}

/**
 * MainWP's per-kind routes update the child but leave the item in the dashboard's pending list
 * until the site is synced again (seen on MainWP 6.1.2), so a confirming re-read would call a
 * done update "still pending". A sync of the sites that reported an update refreshes the list.
 * It is best effort: when it fails, the re-read's verdict stands as before.
 */
async function syncTouched(
  conn: Connection,
  updated: RunUpdatesResult['updated'],
  signal: AbortSignal | undefined,
): Promise<void> {
  const touched = [...new Set(updated.map((u) => u.siteId))];
  if (touched.length === 0 || signal?.aborted) return;
  try {
    await syncSites(conn, touched, signal);
  } catch {
    // The updates ran; only the dashboard's list may lag behind them.
  }
}

/** A site's results, and the run-wide failure that stopped its remaining calls, if any. */
interface SiteRun extends RunUpdatesResult {
  stoppedBy?: unknown;
}

async function runOnSite(
  conn: Connection,
  siteId: number,
  slugsByKind: ReadonlyMap<ItemKind, string[]>,
  signal: AbortSignal | undefined,
): Promise<SiteRun> {
  const result: SiteRun = { updated: [], errors: [] };
  const kinds = [...slugsByKind];
  for (const [position, [kind, slugs]] of kinds.entries()) {
    const error = (slug: string, code: string, message: string): UpdateError => ({
      siteId,
      kind,
      slug,
      code: dashboardSiteCode(code),
      message,
    });
    // The route splits `slug` on commas and spaces, so such a slug cannot be named alone.
    const unsendable = slugs.filter((slug) => /[,\s]/.test(slug));
    const sendable = slugs.filter((slug) => !unsendable.includes(slug));
    for (const slug of unsendable)
      result.errors.push(
        error(slug, 'unsupported_slug', 'the REST API cannot address a slug with a comma or space'),
      );
    if (sendable.length === 0) continue;
    const route = `/updates/${siteId}/update/${ROUTE[kind]}`;
    let run: RestKindRun;
    try {
      const body = await restCall(conn, {
        method: 'POST',
        route,
        ...(kind === 'core' ? {} : { body: { slug: sendable.join(',') } }),
        retry: false,
        signal,
      });
      run =
        kind === 'core'
          ? parseRestCoreRun(body, `REST POST ${route}`)
          : parseRestKindRun(body, `REST POST ${route}`);
    } catch (caught) {
      if (caught instanceof SvcError && caught.details.dashboardCode === 'rest_no_route') {
        throw new SvcError('UNSUPPORTED', `this dashboard's REST API has no route ${route} to run updates`, {
          hint: 'Update the dashboard, or enable the abilities API (WordPress 6.9+) so svc-gitops can run updates through it.',
          cause: caught,
        });
      }
      const siteFailure = siteLevel(caught);
      if (!siteFailure) {
        // This call and the ones after it did not run; what ran before stays reported.
        const code = caught instanceof SvcError ? caught.code : 'INTERNAL';
        const message = caught instanceof Error ? caught.message : String(caught);
        for (const [laterKind, laterSlugs] of kinds.slice(position)) {
          for (const slug of laterSlugs) result.errors.push({ siteId, kind: laterKind, slug, code, message });
        }
        result.stoppedBy = caught;
        return result;
      }
      for (const slug of sendable) result.errors.push(error(slug, siteFailure.code, siteFailure.message));
      continue;
    }
    const reported = new Set<string>();
    for (const u of run.updated) {
      if (!sendable.includes(u.slug) || reported.has(u.slug)) continue;
      reported.add(u.slug);
      result.updated.push({ siteId, kind, ...u });
    }
    for (const f of run.failed) {
      if (!sendable.includes(f.slug) || reported.has(f.slug)) continue;
      reported.add(f.slug);
      result.errors.push(error(f.slug, 'update_failed', f.message));
    }
    for (const slug of sendable) {
      if (reported.has(slug)) continue;
      result.errors.push(
        run.refused === undefined
          ? error(slug, 'not_updated', 'the dashboard did not run this item (not pending at its last sync?)')
          : error(slug, 'not_updated', run.refused),
      );
    }
  }
  return result;
}

/**
 * Answers that concern this site only (unknown site, suspended, the child site did not answer)
 * become per-item errors; authentication, rate limits and connection failures concern the whole
 * run and are thrown.
 */
function siteLevel(caught: unknown): { code: string; message: string } | undefined {
  if (!(caught instanceof SvcError)) return undefined;
  if (caught.code !== 'NOT_FOUND' && caught.code !== 'HTTP_ERROR' && caught.code !== 'BAD_RESPONSE')
    return undefined;
  const dashboardCode = caught.details.dashboardCode;
  const status = caught.details.status;
  const code =
    typeof dashboardCode === 'string'
      ? dashboardCode
      : caught.code === 'BAD_RESPONSE'
        ? 'bad_response'
        : `http_${String(status)}`;
  return { code, message: caught.message };
}
