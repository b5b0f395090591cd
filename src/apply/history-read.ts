import type * as nodeFs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
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
  /** A site id, its address or domain, or its name in the dashboard. */
  site?: string | undefined;
  item?: string | undefined;
  /** Records at or after this time only. */
  since?: Date | undefined;
}

/** What a scan of the history hands on, line by line, in file order. */
export interface HistoryVisitor {
  /** A record and its line as the file holds it (JSON Lines output repeats it unchanged). */
  record(record: HistoryRecord, text: string): void;
  problem(problem: HistoryProblem): void;
}

/** Bytes read at a time: the scan holds one chunk and one line, whatever the file's size. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Reads the history file streamed, handing on each line as it is read: memory stays bounded by
 * the longest line, so a history of years of applies reads like a short one. A line that is not
 * a record is a problem with its 1-based line number, and reading goes on: one torn or edited
 * line never hides the good ones. A missing file is an empty history (no apply has written one
 * yet).
 */
export function scanHistory(fs: typeof nodeFs, path: string, visitor: HistoryVisitor): void {
  let fd: number;
  try {
    fd = fs.openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new SvcError('IO_ERROR', `cannot read the apply history ${path}`, { cause: error });
  }
  const decoder = new StringDecoder('utf8');
  const buffer = Buffer.alloc(CHUNK_BYTES);
  let rest = '';
  let line = 0;
  const take = (text: string) => {
    line++;
    if (text.trim() === '') return;
    const parsed = parseRecord(text);
    if (typeof parsed === 'string') visitor.problem({ line, message: parsed });
    else visitor.record(parsed, text);
  };
  try {
    for (;;) {
      const read = fs.readSync(fd, buffer, 0, CHUNK_BYTES, null);
      if (read === 0) break;
      const lines = (rest + decoder.write(buffer.subarray(0, read))).split('\n');
      rest = lines.pop() as string;
      for (const text of lines) take(text);
    }
    rest += decoder.end();
    if (rest !== '') take(rest);
  } catch (error) {
    if (error instanceof SvcError) throw error;
    throw new SvcError('IO_ERROR', `cannot read the apply history ${path}`, { cause: error });
  } finally {
    fs.closeSync(fd);
  }
}

/** The whole history in memory: for small files and library callers; the CLI scans. */
export function readHistory(fs: typeof nodeFs, path: string): HistoryRead {
  const records: HistoryRecord[] = [];
  const problems: HistoryProblem[] = [];
  scanHistory(fs, path, {
    record: (record) => records.push(record),
    problem: (problem) => problems.push(problem),
  });
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
  if (record.started_at !== undefined && Number.isNaN(Date.parse(String(record.started_at))))
    return 'started_at is not an ISO time';
  return record as unknown as HistoryRecord;
}

/**
 * The test a filter makes of one record. `site` matches a site id, a site address or domain
 * (with or without its scheme), or the site's name, case-insensitively; `item` matches the slug
 * or the item name, case-insensitively.
 */
export function historyFilter(filter: HistoryFilter): (record: HistoryRecord) => boolean {
  const site = filter.site?.trim();
  const item = filter.item?.trim().toLowerCase();
  const since = filter.since?.getTime();
  const onSite = site === undefined ? undefined : siteTest(site);
  return (record) =>
    (onSite === undefined || onSite(record)) &&
    (item === undefined || record.slug.toLowerCase() === item || record.name?.toLowerCase() === item) &&
    (since === undefined || Date.parse(record.time) >= since);
}

/** The records a filter keeps, in order. */
export function filterHistory(records: readonly HistoryRecord[], filter: HistoryFilter): HistoryRecord[] {
  return records.filter(historyFilter(filter));
}

function siteTest(site: string): (record: HistoryRecord) => boolean {
  if (/^\d+$/.test(site)) {
    const id = Number(site);
    return (record) => record.site_id === id;
  }
  const address = bareAddress(site);
  const name = site.toLowerCase();
  return (record) => bareAddress(record.site_url) === address || record.site_name?.toLowerCase() === name;
}

/** An address without its scheme, trailing slashes and case: `https://A.test/` is `a.test`. */
function bareAddress(url: string): string {
  return url
    .replace(/^[a-z]+:\/\//i, '')
    .replace(/\/+$/, '')
    .toLowerCase();
}
