import { SvcError } from '../../errors.js';
import type { WireError } from '../wire/common.js';
import type { WireUpdate } from '../wire/reads.js';
import { ChunkSizer } from './chunk-size.js';
import { FALLBACK_PER_PAGE, type PageParser, type Reader, readListing } from './listing.js';
import type { SiteFeed } from './site-feed.js';

const ABILITY = 'list-updates-v1';
const SITE_KEY = 'site_ids_or_domains';
/** Updates per site assumed for the first chunk, before anything is measured. */
const GUESS_PER_SITE = 8;

/**
 * Pending updates of the feed's sites in chunks of site IDs. Without a site filter MainWP's
 * list-updates-v1 builds the whole fleet's update list for every page it serves, so paging the
 * whole listing costs the server fleet × pages; with `site_ids_or_domains` a request costs its
 * own sites. Chunks are sized from the updates per site measured so far (ChunkSizer) so most
 * take one page, and each request line fits (splitForQuery). The first chunk is read alone: its
 * answer sets the size of the rest. A chunk whose updates exceed a page is paged, and each is
 * complete on its own (readListing checks its totals); an entry for a site the chunk did not
 * name (a filter the dashboard ignored) is INCOMPLETE_READ. Items come back in site order.
 */
export async function readUpdateChunks(
  read: Reader,
  feed: SiteFeed,
  parse: PageParser<WireUpdate>,
): Promise<{ items: WireUpdate[]; errors: WireError[] }> {
  const declared = read.caller.info(ABILITY)?.properties.get('per_page')?.maximum;
  const perPage = declared ?? FALLBACK_PER_PAGE[ABILITY];
  const sizer = new ChunkSizer(perPage, Math.max(1, Math.floor(perPage / GUESS_PER_SITE)), read.timeoutMs);
  const fits = (ids: number[]) => read.caller.splitForQuery(ABILITY, {}, SITE_KEY, ids)[0]?.length ?? 0;
  // Progress: the pages of the chunks begun, plus a chunk a page for the sites still to take,
  // said once the first chunk measured the updates per site (the guess is far off, and a whole
  // site listing read in one request leaves nothing else to wait for). The estimate counts the
  // size for pages only: the time cap follows the load, which a first cold request overstates.
  let begun = 0;
  const publish = () => {
    const left = sizer.measured ? feed.remaining() : undefined;
    if (left !== undefined) read.progress.expect('updates', begun + Math.ceil(left / sizer.sizeForPages()));
  };
  const chunkRead: Reader = {
    ...read,
    progress: {
      ...read.progress,
      expect: (_stage, pages) => {
        begun += pages;
        publish();
      },
      done: (stage) => read.progress.done(stage),
    },
  };
  const bySite = new Map<number, WireUpdate[]>();
  const errors: WireError[] = [];
  let failed = false;
  let firstRead!: () => void;
  const measured = new Promise<void>((resolve) => {
    firstRead = resolve;
  });
  const worker = async (index: number) => {
    if (index > 0) await measured;
    try {
      while (!failed) {
        const chunk = await feed.take(sizer.size(), fits);
        if (chunk.length === 0) return;
        const started = performance.now();
        const part = await readListing(chunkRead, ABILITY, { [SITE_KEY]: chunk }, 'updates', parse, true);
        const pages = Math.max(1, Math.ceil(part.items.length / perPage));
        sizer.observeTime(chunk.length, (performance.now() - started) / pages);
        sizer.observe(countPerSite(chunk, part.items, bySite));
        publish();
        errors.push(...part.errors);
        firstRead();
      }
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      firstRead();
    }
  };
  const settled = await Promise.allSettled(
    Array.from({ length: Math.max(1, read.workers) }, (_, i) => worker(i)),
  );
  const rejected = settled.find((result) => result.status === 'rejected');
  if (rejected) throw rejected.reason;
  read.progress.expect('updates', begun);
  const items: WireUpdate[] = [];
  for (const id of [...bySite.keys()].sort((a, b) => a - b)) items.push(...(bySite.get(id) as WireUpdate[]));
  return { items, errors };
}

/** Files a chunk's items by site and returns each named site's count; refuses unasked sites. */
function countPerSite(chunk: number[], items: WireUpdate[], bySite: Map<number, WireUpdate[]>): number[] {
  const counts = new Map<number, number>(chunk.map((id) => [id, 0]));
  for (const item of items) {
    const count = counts.get(item.siteId);
    if (count === undefined) {
      throw new SvcError(
        'INCOMPLETE_READ',
        `ability ${ABILITY}: a request for ${chunk.length} sites listed an update of site ${item.siteId}, which it did not name`,
        { hint: 'The dashboard ignored the site filter; check its version, then run again.' },
      );
    }
    counts.set(item.siteId, count + 1);
    const run = bySite.get(item.siteId);
    if (run) run.push(item);
    else bySite.set(item.siteId, [item]);
  }
  return [...counts.values()];
}
