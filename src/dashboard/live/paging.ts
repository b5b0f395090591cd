import { SvcError } from '../../errors.js';

export interface Page<T> {
  items: T[];
  total: number;
}

/**
 * Reads every page of a listing that reports `total`: page 1 first (it tells how many pages
 * there are), then the rest by `workers` loops that each take the next page number (measured
 * faster than queueing every page on the transport at once, and it keeps few promises alive). The read is complete or
 * it throws INCOMPLETE_READ: every page must report the same total, every page but the last must
 * be full, and the items must add up to the total. A missing page never becomes a shorter list.
 * A total that page 1 already contradicts (a short page 1 with more pages to come), or one beyond
 * MAX_PAGES pages, is refused before any other page is asked for: a hostile total must not make
 * the client read for hours, or ask for more pages than it can count.
 */
export async function readAllPages<T>(
  what: string,
  asked: number,
  fetchPage: (page: number, perPage: number) => Promise<Page<T>>,
  onPage?: (done: number, pages: number) => void,
  workers = 4,
  /**
   * The schema declares no maximum: a dashboard may serve fewer items a page than asked. A short
   * page 1 of a longer listing then sets the page size the other pages are read at.
   */
  mayClamp = false,
): Promise<T[]> {
  const first = await fetchPage(1, asked);
  const served = first.items.length;
  const perPage = mayClamp && served > 0 && served < asked && served < first.total ? served : asked;
  const pages = Math.max(1, Math.ceil(first.total / perPage));
  if (pages > MAX_PAGES) {
    throw new SvcError(
      'INCOMPLETE_READ',
      `${what}: page 1 reports a total of ${first.total} items, ${pages} pages of ${perPage}; svc-gitops reads at most ${MAX_PAGES} pages of a listing`,
      {
        hint: 'The dashboard sent an implausible total; check it, then run again.',
        details: { what, page: 1 },
      },
    );
  }
  if (pages > 1 && first.items.length !== perPage)
    throw incomplete(what, first, 1, pages, perPage, first.total);
  onPage?.(1, pages);
  let done = 1;
  const rest: Array<Page<T>> = new Array(pages - 1);
  let next = 2;
  await Promise.all(
    Array.from({ length: Math.min(workers, pages - 1) }, async () => {
      while (next <= pages) {
        const page = next++;
        rest[page - 2] = await fetchPage(page, perPage);
        onPage?.(++done, pages);
      }
    }),
  );
  const all = [first, ...rest];
  const items: T[] = [];
  for (const [index, page] of all.entries()) {
    const expected = index < pages - 1 ? perPage : first.total - perPage * (pages - 1);
    if (page.total !== first.total || page.items.length !== expected)
      throw incomplete(what, page, index + 1, pages, expected, first.total);
    items.push(...page.items);
  }
  return items;
}

/** Twenty million items at 200 a page: far beyond any fleet's listing, and a total like 1e15 is refused. */
const MAX_PAGES = 100_000;

function incomplete<T>(
  what: string,
  page: Page<T>,
  number: number,
  pages: number,
  expected: number,
  firstTotal: number,
): SvcError {
  return new SvcError(
    'INCOMPLETE_READ',
    `${what}: page ${number} of ${pages} has ${page.items.length} items (expected ${expected}) and reports total ${page.total} (page 1 said ${firstTotal})`,
    {
      hint: 'The dashboard changed while it was read, or dropped items; run again.',
      details: { what, page: number },
    },
  );
}
