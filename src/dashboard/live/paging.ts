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
 */
export async function readAllPages<T>(
  what: string,
  perPage: number,
  fetchPage: (page: number) => Promise<Page<T>>,
  onPage?: (done: number, pages: number) => void,
  workers = 4,
): Promise<T[]> {
  const first = await fetchPage(1);
  const pages = Math.max(1, Math.ceil(first.total / perPage));
  onPage?.(1, pages);
  let done = 1;
  const rest: Array<Page<T>> = new Array(pages - 1);
  let next = 2;
  await Promise.all(
    Array.from({ length: Math.min(workers, pages - 1) }, async () => {
      while (next <= pages) {
        const page = next++;
        rest[page - 2] = await fetchPage(page);
        onPage?.(++done, pages);
      }
    }),
  );
  const all = [first, ...rest];
  const items: T[] = [];
  for (const [index, page] of all.entries()) {
    const expected = index < pages - 1 ? perPage : first.total - perPage * (pages - 1);
    if (page.total !== first.total || page.items.length !== expected) {
      throw new SvcError(
        'INCOMPLETE_READ',
        `${what}: page ${index + 1} of ${pages} has ${page.items.length} items (expected ${expected}) and reports total ${page.total} (page 1 said ${first.total})`,
        {
          hint: 'The dashboard changed while it was read, or dropped items; run again.',
          details: { what, page: index + 1 },
        },
      );
    }
    items.push(...page.items);
  }
  return items;
}
