import type * as nodeFs from 'node:fs';
import { SvcError } from '../errors.js';
import type { HistoryRecord } from './history.js';

/** A line of the history that is not a record: where it is and why, for `file:line` messages. */
export interface HistoryProblem {
  line: number;
  message: string;
}

export interface HistoryRead {
  records: HistoryRecord[];
  problems: HistoryProblem[];
}

export interface HistoryFilter {
  site?: string | undefined;
  item?: string | undefined;
  /** Records at or after this time only. */
  since?: Date | undefined;
}

/**
 * Reads the history file. A line that is not a record is a problem with its 1-based line
 * number, and reading goes on: one torn or edited line never hides the good ones. A missing
 * file is an empty history (no apply has written one yet).
 */
export function readHistory(fs: typeof nodeFs, path: string): HistoryRead {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], problems: [] };
    throw new SvcError('IO_ERROR', `cannot read the apply history ${path}`, { cause: error });
  }
  const records: HistoryRecord[] = [];
  const problems: HistoryProblem[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    if (line.trim() === '') continue;
    const parsed = parseRecord(line);
    if (typeof parsed === 'string') problems.push({ line: index + 1, message: parsed });
    else records.push(parsed);
  }
  return { records, problems };
}

function parseRecord(line: string): HistoryRecord | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const record = value as Record<string, unknown>;
  for (const key of ['time', 'plan_id', 'site_url', 'op', 'kind', 'slug', 'outcome'] as const) {
    if (typeof record[key] !== 'string') return `no ${key}`;
  }
  if (!Number.isInteger(record.site_id)) return 'no site_id';
  if (Number.isNaN(Date.parse(record.time as string))) return 'time is not an ISO time';
  return record as unknown as HistoryRecord;
}

/**
 * The records a filter keeps. `site` matches a site id or a site URL (with or without its
 * scheme); `item` matches the slug or the item name, case-insensitively.
 */
export function filterHistory(records: readonly HistoryRecord[], filter: HistoryFilter): HistoryRecord[] {
  const site = filter.site?.trim();
  const item = filter.item?.trim().toLowerCase();
  const since = filter.since?.getTime();
  return records.filter(
    (record) =>
      (site === undefined || siteMatches(record, site)) &&
      (item === undefined || record.slug.toLowerCase() === item || record.name?.toLowerCase() === item) &&
      (since === undefined || Date.parse(record.time) >= since),
  );
}

function siteMatches(record: HistoryRecord, site: string): boolean {
  if (/^\d+$/.test(site)) return record.site_id === Number(site);
  const bare = (url: string) =>
    url
      .replace(/^[a-z]+:\/\//i, '')
      .replace(/\/+$/, '')
      .toLowerCase();
  return bare(record.site_url) === bare(site);
}
