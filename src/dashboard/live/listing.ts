import { SvcError } from '../../errors.js';
import type { AbilityCaller } from '../abilities/call.js';
import type { WireError } from '../wire/common.js';
import type { StringPool } from '../wire/string-pool.js';
import { readAllPages } from './paging.js';
import type { ReadProgressTracker } from './read-progress.js';

/** Defaults of the shipped schemas, used only when a catalogue declares paging without a maximum. */
export const FALLBACK_PER_PAGE = {
  'list-sites-v1': 20,
  'list-updates-v1': 50,
  'list-ignored-updates-v1': 50,
  'list-tags-v1': 20,
  'list-clients-v1': 20,
} as const;
export type Listing = keyof typeof FALLBACK_PER_PAGE;

/**
 * Items asked for a page where the schema declares `per_page` without a maximum (the spec's
 * ignored listing). A dashboard that serves fewer sets the page size (readAllPages `mayClamp`);
 * at ~250 bytes an entry this bounds a page near 1.2 MB, far below maxResponseSize.
 */
const UNDECLARED_MAX_ASK = 5000;

export interface Reader {
  pool: StringPool;
  caller: AbilityCaller;
  signal: AbortSignal | undefined;
  workers: number;
  /** The request timeout: no request should cost the dashboard near it (ChunkSizer). */
  timeoutMs?: number;
  progress: ReadProgressTracker;
}

export interface ParsedPage<T> {
  items: T[];
  total: number;
  errors: WireError[];
}

export type PageParser<T> = (
  body: Awaited<ReturnType<AbilityCaller['call']>>,
  where: string,
) => ParsedPage<T>;

/** Every page of one listing (or the one answer of an unpaged one), complete or it throws. */
export async function readListing<T>(
  read: Reader,
  ability: Listing,
  input: Record<string, unknown>,
  stage: string,
  parse: PageParser<T>,
  /** One of several pieces of a paged listing: each adds its own pages to the progress total. */
  piece = false,
): Promise<{ items: T[]; errors: WireError[] }> {
  const { caller, signal, progress } = read;
  const info = caller.info(ability);
  const where = `ability ${info?.name ?? ability}`;
  const paged = caller.declares(ability, 'page') && caller.declares(ability, 'per_page');
  if (!paged) {
    if (Object.keys(input).length === 0) progress.expect(stage, 1);
    const page = parse(await caller.call(ability, input, signal), where);
    // One answer holds the whole listing: the items must be all the total it reports.
    if (page.items.length !== page.total) {
      throw new SvcError(
        'INCOMPLETE_READ',
        `${where}: the listing holds ${page.items.length} items but reports a total of ${page.total}`,
        {
          hint: 'The dashboard dropped items or changed while it was read; run again.',
          details: { what: where },
        },
      );
    }
    progress.done(stage);
    return { items: page.items, errors: page.errors };
  }
  const declaredMax = info?.properties.get('per_page')?.maximum;
  const perPage =
    declaredMax ?? (ability === 'list-ignored-updates-v1' ? UNDECLARED_MAX_ASK : FALLBACK_PER_PAGE[ability]);
  const errors: WireError[] = [];
  let counted = false;
  const items = await readAllPages(
    where,
    perPage,
    async (page, size) => {
      const parsed = parse(await caller.call(ability, { ...input, page, per_page: size }, signal), where);
      // Site errors repeat on every page; the assembler keeps the first per site.
      errors.push(...parsed.errors);
      return parsed;
    },
    (_done, pages) => {
      if (!counted) {
        counted = true;
        progress.expect(stage, pages, piece);
      }
      progress.done(stage);
    },
    read.workers,
    declaredMax === undefined,
  );
  return { items, errors };
}
