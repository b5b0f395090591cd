/**
 * The parsing child of scripts/bench/security-feed.ts, bundled and run by plain node (as the
 * installed CLI runs, without the TypeScript loader's own memory): `<feed> <sites> <mode>
 * [items.json]`. Modes: `items` reads the feed keeping the advisories of the items listed in
 * items.json (the fleet's `[kind, slug]` pairs) and holds nothing else; `fleet` holds the
 * reference fleet's whole live state, as the engine does when it reads the feed, and keeps its
 * items' advisories; `none` holds that fleet and reads no feed (the floor of `fleet`); `all`
 * keeps every advisory. Prints its figures, peak RSS included.
 */
import { readFileSync } from 'node:fs';
import { fleetFeedItems } from '../../src/plan/index.js';
import { readFeedFile } from '../../src/security/index.js';
import type { PendingUpdate } from '../../src/types.js';
import { generateFleet } from './fixtures.js';

const [path = '', sites = '10000', mode = 'items', itemsFile = ''] = process.argv.slice(2);
const live =
  mode === 'fleet' || mode === 'none'
    ? generateFleet({ sites: Number(sites), pendingPerSite: 6, ignoredPerSite: 3 })
    : undefined;

function listedItems(): Array<Pick<PendingUpdate, 'kind' | 'slug'>> {
  const pairs = JSON.parse(readFileSync(itemsFile, 'utf8')) as Array<[PendingUpdate['kind'], string]>;
  return pairs.map(([kind, slug]) => ({ kind, slug }));
}

const started = performance.now();
const read = await (async () => {
  if (mode === 'none') return { records: 0, advisories: [], bytes: 0 };
  if (mode === 'all') return readFeedFile(path, 'wordfence');
  const keep = fleetFeedItems({ pending: live ? live.pending : listedItems() });
  return readFeedFile(path, 'wordfence', { keep });
})();
process.stdout.write(
  `${JSON.stringify({
    records: read.records,
    advisories: read.advisories.length,
    bytes: read.bytes,
    ms: performance.now() - started,
    maxRssKb: process.resourceUsage().maxRSS,
    // Keeps the fleet alive to the end, as a plan would.
    pending: live?.pending.length ?? 0,
  })}\n`,
);
