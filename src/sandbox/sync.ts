import type { SandboxContext } from './context.js';
import type { FleetSite } from './fleet-types.js';

/**
 * A sync: the dashboard re-reads the child site, so changes made there outside the dashboard
 * (`unsynced`) reach the stored data every listing is built from. An offline site cannot sync.
 */
export function syncSite(ctx: SandboxContext, site: FleetSite): boolean {
  if (site.offline) return false;
  ctx.store.changeSite(site, (record) => {
    record.syncErrors = false;
    record.lastSync = ctx.clock.now();
    for (const change of record.unsynced ?? []) {
      if (change.type === 'core') {
        const pending = record.core.new;
        record.core = { current: change.version, new: pending === change.version ? null : pending };
        continue;
      }
      const list = change.type === 'plugin' ? record.plugins : record.themes;
      const item = list.find((i) => i.slug === change.slug);
      if (!item) continue;
      item.version = change.version;
      if (item.update === change.version) item.update = null;
    }
    delete record.unsynced;
  });
  return true;
}
