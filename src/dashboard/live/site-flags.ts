import type { LiveIgnore, LiveState, PendingUpdate } from '../../types.js';
import type { AbilityCaller } from '../abilities/call.js';
import { mapConcurrent } from '../concurrent.js';
import { decodeSlug, type Json, Reader } from '../wire/json.js';
import type { SiteFlags } from '../wire/reads.js';

/**
 * The dashboard's site-wide "ignore every update of this kind" flags (dashboard-facts §5): no
 * listing shows them and they hide whole kinds, so they are read from the REST site records
 * (`GET /sites`, which needs a REST API key; rest-site-listing.ts) and added as `site-flag` ignores with slug `*`. The
 * plugin and theme updates they hide are read with `get-site-plugins-v1` / `-themes-v1`
 * (`update_version` ignores no ignore) where the abilities API offers them. Without a key the
 * flags stay unseen, and the capabilities say so.
 */
export async function withSiteFlags(
  caller: AbilityCaller | undefined,
  live: LiveState,
  options: {
    signal?: AbortSignal | undefined;
    workers: number;
    /** The flagged sites of the REST site listing; undefined without a REST key. */
    flags: Promise<Map<number, SiteFlags> | undefined>;
  },
): Promise<LiveState> {
  const { signal } = options;
  const read = await options.flags;
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
