import { SvcError } from '../../errors.js';

export interface Page<T> {
  items: T[];
  total: number;
}

/**
 * Reads every page of a listing that reports `total`: page 1 first (it tells how many pages
 * there are), then the rest at once (the transport bounds concurrency). The read is complete or
 * it throws INCOMPLETE_READ: every page must report the same total, every page but the last must
 * be full, and the items must add up to the total. A missing page never becomes a shorter list.
 */
export async function readAllPages<T>(
  what: string,
  perPage: number,
  fetchPage: (page: number) => Promise<Page<T>>,
  onPage?: (done: number, pages: number) => void,
): Promise<T[]> {
  const first = await fetchPage(1);
  const pages = Math.max(1, Math.ceil(first.total / perPage));
  onPage?.(1, pages);
  let done = 1;
  const rest = await Promise.all(
    Array.from({ length: pages - 1 }, async (_, index) => {
      const page = await fetchPage(index + 2);
      onPage?.(++done, pages);
      return page;
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
