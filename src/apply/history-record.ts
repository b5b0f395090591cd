import type * as nodeFs from 'node:fs';
import type { DashboardClient } from '../dashboard/client.js';
import type { ApplyResult } from '../types.js';
import { appendHistory, historyPath, historyRecords } from './history.js';
import type { StatePaths } from './state-dir.js';

/**
 * Appends a finished run's records to the history. The calls have been made by then, so a
 * history that cannot be written is a warning, never a failed apply: the result still reaches
 * the caller, and the journal keeps what resume needs.
 */
export function recordHistory(
  fs: typeof nodeFs,
  paths: StatePaths,
  setting: string | undefined,
  result: ApplyResult,
  dashboard: string,
  siteNames: ReadonlyMap<number, string>,
  onWarning: ((message: string) => void) | undefined,
): void {
  try {
    appendHistory(fs, historyPath(paths.dir, setting), historyRecords(result, dashboard, siteNames));
  } catch (error) {
    onWarning?.(`the apply history was not written: ${(error as Error).message}`);
  }
}

/**
 * The client a run calls through, noting the site names every live read of the run lists (the
 * saved plan's re-check, the confirming re-read): the history names its sites without a call
 * of its own.
 */
export function namingSites<C extends Pick<DashboardClient, 'readLive'>>(
  client: C,
): { client: C; names: Map<number, string> } {
  const names = new Map<number, string>();
  const readLive: DashboardClient['readLive'] = async (options) => {
    const live = await client.readLive(options);
    for (const site of live.sites) if (site.name) names.set(site.id, site.name);
    return live;
  };
  // Every other member is the client's own, called on the client itself.
  const naming = new Proxy(client, {
    get(target, key) {
      if (key === 'readLive') return readLive;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { client: naming, names };
}
