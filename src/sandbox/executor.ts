import { nsCode, type SandboxContext } from './context.js';
import type { UpdateEntry } from './entries.js';
import type { FleetSite } from './fleet-types.js';
import { changePending } from './pending.js';
import type { ErrorItem, RunSelection, SiteRunResult } from './run-results.js';

export type { ErrorItem, RunSelection, SiteRunResult, UpdatedEntry } from './run-results.js';

const FAILURE_TEXT: Record<UpdateEntry['type'], string> = {
  core: 'Core update failed.',
  plugin: 'No response from the child site server.',
  theme: 'No response from the child site server.',
  translation: 'No update found for the set locale.',
};

const ROLLBACK_TEXT = 'The update failed; WordPress restored the previous version.';

/** A rollback rule for this update: WordPress restores the old version and remembers the new one. */
function rolledBack(ctx: SandboxContext, site: FleetSite, entry: UpdateEntry): boolean {
  if (entry.type !== 'plugin' && entry.type !== 'theme') return false;
  if (!ctx.healthFaults.rollsBack(site, `${entry.type}:${entry.slug}`, entry.new_version)) return false;
  ctx.healthFaults.recordRollback(site.id, entry.type, entry.slug, {
    name: entry.name,
    old_version: entry.current_version,
    version: entry.new_version,
    created: Math.floor(ctx.clock.now() / 1000),
  });
  return true;
}

export function isConnectorOutdated(site: FleetSite): boolean {
  return Number.parseFloat(site.connectorVersion) < 4;
}

export function siteError(ctx: SandboxContext, site: FleetSite, suffix: string, message: string): ErrorItem {
  return { site_id: site.id, site_url: site.url, type: 'site', slug: '', code: nsCode(ctx, suffix), message };
}

/**
 * Runs the selected visible (not ignored) pending updates of one site, as the dashboard would:
 * offline sites are refused whole, an outdated connector fails every item, items listed in the
 * site's `failUpdates` fail with `svc_update_failed`; every success leaves the pending list.
 */
export function runSiteUpdates(ctx: SandboxContext, site: FleetSite, selection: RunSelection): SiteRunResult {
  if (site.offline)
    return {
      updated: [],
      errors: [],
      siteError: siteError(ctx, site, 'site_offline', 'Site is known to be offline.'),
    };
  const visible = ctx.store.visible(site);
  const chosen: UpdateEntry[] = [];
  for (const kind of selection.kinds) {
    for (const entry of visible[kind])
      if (!selection.slugs || selection.slugs.has(entry.slug)) chosen.push(entry);
  }
  const result: SiteRunResult = { updated: [], errors: [] };
  if (chosen.length === 0) return result;
  const outdated = isConnectorOutdated(site);
  let updatedCount = 0;
  ctx.store.changeSite(site, (record) => {
    for (const entry of chosen) {
      const itemError = (suffix: string, message: string): ErrorItem => ({
        site_id: site.id,
        site_url: site.url,
        type: entry.type,
        slug: entry.slug,
        code: nsCode(ctx, suffix),
        message,
      });
      if (outdated) {
        result.errors.push(itemError('child_outdated', 'Child plugin version 4.0 or higher required.'));
        continue;
      }
      if (record.failUpdates.includes(`${entry.type}:${entry.slug}`)) {
        result.errors.push(itemError('update_failed', FAILURE_TEXT[entry.type]));
        continue;
      }
      if (rolledBack(ctx, site, entry)) {
        result.errors.push(itemError('update_failed', ROLLBACK_TEXT));
        continue;
      }
      const language = applyUpdate(record, entry);
      ctx.stats.recordUpdate(site.id, entry.type, entry.slug, language);
      updatedCount += 1;
      result.updated.push({
        site_id: site.id,
        site_url: site.url,
        site_name: site.name,
        type: entry.type,
        slug: entry.slug,
        name: entry.name,
        old_version: entry.current_version,
        new_version: entry.new_version,
      });
    }
  });
  // After the site's record is written: a release published now lands on a consistent store.
  for (let i = 0; i < updatedCount; i++) ctx.releases.updated((change) => changePending(ctx, 'add', change));
  return result;
}

/** Applies one update to the stored site; returns the language of an updated translation. */
function applyUpdate(site: FleetSite, entry: UpdateEntry): string | undefined {
  if (entry.type === 'core') {
    site.core = { current: entry.new_version, new: null };
    return undefined;
  }
  if (entry.type === 'translation') {
    const index = site.translations.findIndex(
      (t) => t.slug === entry.slug && t.version === entry.current_version,
    );
    const [removed] = index >= 0 ? site.translations.splice(index, 1) : [];
    return removed?.language;
  }
  const list = entry.type === 'plugin' ? site.plugins : site.themes;
  const item = list.find((i) => i.slug === entry.slug);
  if (item?.update) {
    item.version = item.update;
    item.update = null;
  }
  return undefined;
}
