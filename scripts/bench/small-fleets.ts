/**
 * Small generated fleets for judging the update grouping against the exhaustive minimum
 * (exact-grouping.ts): sites with a few pending items each, some of which the plan leaves alone.
 * Seeded, so the benchmark and its short version in the suite see the same fleets.
 */

import { createRandom } from '../../src/sandbox/random.js';
import type { Action, ItemKind, LiveState } from '../../src/types.js';
import type { SmallSite } from './exact-grouping.js';

export interface SmallFleet {
  actions: Action[];
  pending: LiveState['pending'];
  /** Per site, what the plan updates and what it leaves pending (the exhaustive search's input). */
  sites: SmallSite[];
}

const ITEMS: ReadonlyArray<{ kind: ItemKind; slug: string }> = [
  { kind: 'plugin', slug: 'a/a.php' },
  { kind: 'plugin', slug: 'b/b.php' },
  { kind: 'plugin', slug: 'c/c.php' },
  { kind: 'theme', slug: 'astra' },
  { kind: 'theme', slug: 'neve' },
  { kind: 'translation', slug: 'astra' },
  { kind: 'translation', slug: 'a' },
  { kind: 'core', slug: 'wordpress' },
];

export function smallFleets(count: number, sites: { min: number; max: number }, seed = 2026): SmallFleet[] {
  const random = createRandom(seed);
  const fleets: SmallFleet[] = [];
  for (let f = 0; f < count; f++) {
    const n = random.int(sites.min, sites.max);
    const leaveRate = random.next() * 0.4;
    const fleet: SmallFleet = { actions: [], pending: [], sites: [] };
    for (let id = 1; id <= n; id++) {
      const wanted: SmallSite['wanted'][number][] = [];
      const blocked: SmallSite['blocked'][number][] = [];
      for (const item of ITEMS) {
        if (random.next() > 0.35) continue;
        fleet.pending.push({ siteId: id, ...item, name: item.slug, from: '1.0', to: '1.1' });
        if (random.next() < leaveRate) blocked.push(item);
        else {
          wanted.push(item);
          fleet.actions.push({
            op: 'update',
            site_id: id,
            site_url: `https://s${id}.test/`,
            ...item,
            name: item.slug,
            from: '1.0',
            to: '1.1',
            risk: 'medium',
            reason: 'bench',
          });
        }
      }
      fleet.sites.push({ wanted, blocked });
    }
    fleets.push(fleet);
  }
  return fleets;
}
