import type { DashboardClient } from '../dashboard/index.js';
import type { DesiredState, LiveState, Plan } from '../types.js';
import { type UnknownName, unknownNames } from './unknown-names.js';

/** What judging the names of a plan made now needs. */
export interface NamesToJudge {
  desired: DesiredState;
  live: LiveState;
  plan: Plan;
  client: Pick<DashboardClient, 'searchInstalled'>;
  /** The sites `--target` named: only their updates and ignores were read. */
  targetSiteIds?: number[] | undefined;
}

/**
 * The names of the desired state the dashboard does not know. Under strict, a slug in no listing
 * may still be installed: the installed items of the plan's sites are searched for the unknown
 * slugs first (one read per site and kind, stopping when all are found), so strict refuses only
 * what is really unknown. Without strict, nothing more is read: the names are warnings.
 */
export async function judgeNames(
  planned: NamesToJudge,
  options: {
    strict: boolean;
    signal?: AbortSignal | undefined;
    onProgress?: (read: number, sites: number) => void;
  },
): Promise<UnknownName[]> {
  const { desired, live, plan } = planned;
  const unknown = unknownNames(desired, live, plan, undefined, planned.targetSiteIds);
  if (!options.strict || !unknown.some((name) => name.item || name.unchecked)) return unknown;
  const slugs = (kind: 'plugin' | 'theme') => [
    ...new Set(
      unknown.flatMap((name) =>
        [...(name.item ? [name.item] : []), ...(name.unchecked ?? [])].flatMap((item) =>
          item.kind === kind ? [item.slug] : [],
        ),
      ),
    ),
  ];
  const result = await planned.client.searchInstalled(
    {
      siteIds: live.sites.map((site) => site.id),
      plugins: slugs('plugin'),
      themes: slugs('theme'),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    },
    options.signal ? { signal: options.signal } : {},
  );
  if (!result) return unknown;
  return unknownNames(desired, live, plan, { ...result.installed, sitesRead: result.sitesRead });
}

/** The names strict refuses: the unknown ones, not those left unjudged. */
export function refusedNames(names: readonly UnknownName[]): UnknownName[] {
  return names.filter((name) => !name.unchecked);
}
