import { SvcError } from '../../errors.js';
import type { ItemKind } from '../../types.js';
import type { RunUpdatesRequest, RunUpdatesResult, UpdateError } from '../client.js';
import type { Connection } from '../connection.js';
import { parseRestCoreRun, parseRestKindRun, type RestKindRun } from '../wire/rest-run.js';
import { restCall } from './call.js';

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
 * per-site failures are results; only failures that hit every call (credentials, rate limits,
 * network) throw. These routes run synchronously: nothing is queued.
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
  return {
    updated: perSite.flatMap((site) => site.updated),
    errors: perSite.flatMap((site) => site.errors),
  };
}

async function runOnSite(
  conn: Connection,
  siteId: number,
  slugsByKind: ReadonlyMap<ItemKind, string[]>,
  signal: AbortSignal | undefined,
): Promise<RunUpdatesResult> {
  const result: RunUpdatesResult = { updated: [], errors: [] };
  for (const [kind, slugs] of slugsByKind) {
    const error = (slug: string, code: string, message: string): UpdateError => ({
      siteId,
      kind,
      slug,
      code,
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
      if (!siteFailure) throw caught;
      for (const slug of sendable) result.errors.push(error(slug, siteFailure.code, siteFailure.message));
      continue;
    }
    const reported = new Set<string>();
    for (const u of run.updated) {
      if (!sendable.includes(u.slug) || reported.has(u.slug)) continue;
      reported.add(u.slug);
      result.updated.push({ siteId, kind, slug: u.slug, ...pick(u) });
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

function pick(u: { from?: string; to?: string }): { from?: string; to?: string } {
  return { ...(u.from === undefined ? {} : { from: u.from }), ...(u.to === undefined ? {} : { to: u.to }) };
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
