import type { SandboxContext } from '../context.js';
import { CORE_SLUG, isIgnored } from '../entries.js';
import type { FleetSite } from '../fleet-types.js';
import { ok, type Reply } from '../http-util.js';
import type { SiteCall } from './call.js';
import { refuseUnconfirmed } from './confirmation.js';

type HoldKind = 'core' | 'plugin' | 'theme';

/**
 * `unignore-site-updates-v1` of the next release (dashboard-facts §9): drops per-site ignores
 * only; a global ignore or a site-wide flag still holds the item (`still_held_by`).
 */
export function unignoreSiteUpdates(ctx: SandboxContext, { site, input }: SiteCall): Reply {
  const refused = refuseUnconfirmed(ctx, input, 'Unignoring requires', 'preview it');
  if (refused) return refused;
  const dryRun = input.dry_run === true;
  const type = input.type as HoldKind;
  const slugs = (input.slugs as unknown[]).map(String);
  const holds = slugs.map((slug) => hold(ctx, site, type, slug));
  if (dryRun) {
    return ok({
      dry_run: true,
      would_affect: { site_id: site.id, site_url: site.url, site_name: site.name, holds },
      count: holds.filter((h) => h.held).length,
      warnings: holds
        .filter((h) => h.still_held_by.length > 0)
        .map((h) => `${h.slug} stays ignored by ${h.still_held_by.join(' and ')}.`),
      errors: [],
    });
  }
  const removed = holds.filter((h) => h.held).map((h) => h.slug);
  ctx.store.changeSite(site, (record) => {
    if (type === 'core') {
      if (removed.length > 0) record.ignores.core = null;
      return;
    }
    const list = type === 'plugin' ? record.ignores.plugins : record.ignores.themes;
    const drop = new Set(removed);
    const kept = list.filter((entry) => !drop.has(entry.slug));
    list.splice(0, list.length, ...kept);
  });
  return ok({
    dry_run: false,
    removed,
    not_held: holds.filter((h) => !h.held).map((h) => h.slug),
    count: removed.length,
  });
}

interface Hold {
  type: HoldKind;
  slug: string;
  name: string;
  held: boolean;
  still_held_by: ('global' | 'site_flag')[];
  pending: { from: string; to: string } | null;
}

function hold(ctx: SandboxContext, site: FleetSite, type: HoldKind, slug: string): Hold {
  const global = ctx.store.global;
  if (type === 'core') {
    const still: Hold['still_held_by'] = [];
    if (global.core) still.push('global');
    if (site.flags.core) still.push('site_flag');
    return {
      type,
      slug: CORE_SLUG,
      name: 'WordPress',
      held: site.ignores.core !== null,
      still_held_by: still,
      pending: site.core.new ? { from: site.core.current, to: site.core.new } : null,
    };
  }
  const kind = type === 'plugin' ? 'plugins' : 'themes';
  const item = site[kind].find((i) => i.slug === slug);
  const own = site.ignores[kind].find((entry) => entry.slug === slug);
  const shared = global[kind].find((entry) => entry.slug === slug);
  const still: Hold['still_held_by'] = [];
  if (shared && (!item?.update || isIgnored(shared.versions, item.update))) still.push('global');
  if (site.flags[kind]) still.push('site_flag');
  return {
    type,
    slug,
    name: item?.name ?? own?.name ?? slug,
    held: own !== undefined,
    still_held_by: still,
    pending: item?.update ? { from: item.version, to: item.update } : null,
  };
}
