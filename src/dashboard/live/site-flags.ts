import type { LiveIgnore, LiveState, PendingUpdate, Site } from '../../types.js';
import type { AbilityCaller } from '../abilities/call.js';
import { mapConcurrent } from '../concurrent.js';
import type { Connection } from '../connection.js';
import { restCall } from '../rest/call.js';
import { decodeSlug, type Json, Reader } from '../wire/json.js';
import { type SiteFlags, siteFlagsOf } from '../wire/reads.js';
import { restData } from '../wire/rest-reads.js';

/** Bytes allowed per listed site in `GET /sites` (the sandbox's records are ~250). */
export const SITE_RECORD_BYTES = 4096;

/**
 * The dashboard's site-wide "ignore every update of this kind" flags (dashboard-facts §5): no
 * listing shows them and they hide whole kinds, so they are read from the REST site records
 * (`GET /sites`, which needs a REST API key) and added as `site-flag` ignores with slug `*`. The
 * plugin and theme updates they hide are read with `get-site-plugins-v1` / `-themes-v1`
 * (`update_version` ignores no ignore) where the abilities API offers them. Without a key the
 * flags stay unseen, and the capabilities say so.
 */
export async function withSiteFlags(
  conn: Connection,
  caller: AbilityCaller | undefined,
  live: LiveState,
  options: {
    signal?: AbortSignal | undefined;
    workers: number;
    /** The flags read already (readSiteFlags), started while the other listings were read. */
    flags?: Promise<Map<number, SiteFlags> | undefined> | undefined;
  },
): Promise<LiveState> {
  const { signal } = options;
  const read = await (options.flags ?? readSiteFlags(conn, live.sites, signal));
  if (!read) return { ...live, capabilities: { ...live.capabilities, siteFlags: 'unseen' } };
  // The read may have listed more sites than this live state reports (a read of some sites).
  const reported = new Set(live.sites.map((site) => site.id));
  const flagged = new Map([...read].filter(([id]) => reported.has(id)));
  const known = new Set(
    live.ignores.filter((i) => i.origin === 'site-flag').map((i) => `${i.siteId}|${i.kind}`),
  );
  const ignores: LiveIgnore[] = [...live.ignores];
  const reads: Array<{ siteId: number; kind: 'plugin' | 'theme'; ability: string; field: string }> = [];
  for (const [siteId, flags] of flagged) {
    for (const kind of ['core', 'plugin', 'theme'] as const) {
      if (!flags[kind] || known.has(`${siteId}|${kind}`)) continue;
      ignores.push({ siteId, kind, slug: '*', versions: 'all', origin: 'site-flag' });
    }
    for (const [kind, ability, field] of [
      ['plugin', 'get-site-plugins-v1', 'plugins'],
      ['theme', 'get-site-themes-v1', 'themes'],
    ] as const) {
      if (flags[kind] && caller?.info(ability)) reads.push({ siteId, kind, ability, field });
    }
  }
  // One request per flagged site and kind: at the client's concurrency, as the listings are read.
  const perSite = await mapConcurrent(reads, options.workers, async ({ siteId, kind, ability, field }) => {
    const input: Record<string, unknown> = { site_id_or_domain: siteId };
    if (caller?.declares(ability, 'has_update')) input.has_update = true;
    const body = await caller?.call(ability, input, signal);
    return pendingOf(body, siteId, kind, field, `ability ${caller?.info(ability)?.name ?? ability}`);
  });
  const hidden: PendingUpdate[] = perSite.flat();
  return { ...live, ignores, hidden, capabilities: { ...live.capabilities, siteFlags: 'read-write' } };
}

/**
 * The flags of the listed sites that have one set, from the REST site records; undefined without
 * a REST key. Needs only the site listing, so a read starts it as soon as that is in.
 */
export async function readSiteFlags(
  conn: Connection,
  sites: readonly Site[],
  signal: AbortSignal | undefined,
): Promise<Map<number, SiteFlags> | undefined> {
  if (conn.restAuth.kind === 'none') return undefined;
  const where = 'REST GET /sites';
  // One unpaged answer for the whole fleet (the interface shows no paging for it): its limit
  // grows with the sites listed, as the listing it mirrors does, so a large fleet plans with the
  // default maxResponseSize while a reply far beyond any fleet's records is still refused.
  const fleetSizedLimit = sites.length * SITE_RECORD_BYTES;
  const data = restData(
    await restCall(conn, { method: 'GET', route: '/sites', retry: true, signal, fleetSizedLimit }),
    where,
  );
  const listed = new Set(sites.map((site) => site.id));
  const flagged = new Map<number, SiteFlags>();
  (Array.isArray(data) ? data : []).forEach((record, index) => {
    const id = Reader.of(record, where, `data[${index}]`).optionalInt('id');
    const flags = siteFlagsOf(record, where, `data[${index}]`);
    if (id !== undefined && flags && listed.has(id) && (flags.core || flags.plugin || flags.theme))
      flagged.set(id, flags);
  });
  return flagged;
}

function pendingOf(
  body: Json | undefined,
  siteId: number,
  kind: 'plugin' | 'theme',
  field: string,
  where: string,
): PendingUpdate[] {
  const out: PendingUpdate[] = [];
  Reader.of(body, where)
    .array(field)
    .forEach((item, index) => {
      const r = Reader.of(item, where, `${field}[${index}]`);
      const to = r.raw('update_version');
      if (typeof to !== 'string' || to === '') return;
      const slug = decodeSlug(r.string('slug'));
      out.push({
        siteId,
        kind,
        slug,
        name: r.optionalString('name') ?? slug,
        from: r.optionalString('version') ?? '',
        to,
      });
    });
  return out;
}
