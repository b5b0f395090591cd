import type { SandboxContext } from '../context.js';
import type { FleetIgnore, FleetSite } from '../fleet-types.js';
import { ok, type Reply } from '../http-util.js';
import type { SiteCall } from './call.js';

/** Adds (all versions, `Name` = slug, as abilities store it) or drops a per-site item ignore. */
function setItemIgnore(list: FleetIgnore[], slug: string, ignore: boolean): boolean {
  const index = list.findIndex((entry) => entry.slug === slug);
  if (ignore) {
    const entry: FleetIgnore = { slug, name: slug, versions: 'all' };
    if (index >= 0) list[index] = entry;
    else list.push(entry);
    return index < 0;
  }
  if (index >= 0) list.splice(index, 1);
  return index >= 0;
}

/** Slugs are not checked against installed items; unignoring what is not ignored still succeeds. */
export function setIgnoredUpdates(ctx: SandboxContext, { site, input }: SiteCall): Reply {
  const action = String(input.action);
  const type = String(input.type);
  const slug = String(input.slug);
  ctx.store.changeSite(site, (record) => {
    if (type === 'core') record.ignores.core = action === 'ignore' ? 'all' : null;
    else
      setItemIgnore(
        type === 'plugin' ? record.ignores.plugins : record.ignores.themes,
        slug,
        action === 'ignore',
      );
  });
  return ok({ success: true, action, site_id: site.id, type, slug });
}

export function ignoreSiteCore(ctx: SandboxContext, { site, input }: SiteCall): Reply {
  const action = (input.action as string | undefined) ?? 'add';
  // `remove` clears only the per-site core option, never the site-wide flag.
  ctx.store.changeSite(site, (record) => {
    record.ignores.core = action === 'add' ? 'all' : null;
  });
  if (ctx.quirks.abilityShippedOutputs) {
    const message =
      action === 'add' ? 'Core updates ignored for this site.' : 'Core updates unignored for this site.';
    return ok({ success: true, message, ignored_count: 1 });
  }
  return ok({ success: true, site_id: site.id, action, core_ignored: site.ignores.core !== null });
}

function ignoreSiteItems(
  ctx: SandboxContext,
  site: FleetSite,
  input: Record<string, unknown>,
  kind: 'plugins' | 'themes',
): Reply {
  const action = (input.action as string | undefined) ?? 'add';
  const slugs = (input.slugs as unknown[]).map(String);
  ctx.store.changeSite(site, (record) => {
    for (const slug of slugs) setItemIgnore(record.ignores[kind], slug, action === 'add');
  });
  if (ctx.quirks.abilityShippedOutputs) {
    const noun = slugs.length === 1 ? kind.slice(0, -1) : kind;
    const verb = action === 'add' ? 'ignored' : 'unignored';
    const message = slugs.length === 0 ? `No ${kind} were ${verb}.` : `${slugs.length} ${noun} ${verb}.`;
    // `ignored_count` is the number of slugs sent, not the number that changed (release 6.1).
    return ok({ success: slugs.length > 0, message, ignored_count: slugs.length });
  }
  const current = site.ignores[kind].map((entry) => entry.slug);
  return ok({ success: true, site_id: site.id, action, [`${kind}_ignored`]: current });
}

export const ignoreSitePlugins = (ctx: SandboxContext, { site, input }: SiteCall): Reply =>
  ignoreSiteItems(ctx, site, input, 'plugins');
export const ignoreSiteThemes = (ctx: SandboxContext, { site, input }: SiteCall): Reply =>
  ignoreSiteItems(ctx, site, input, 'themes');
