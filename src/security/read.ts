/**
 * Reads a feed file, streamed, into advisories: all of it or nothing. Any malformed record,
 * frame or truncation refuses the whole feed with FEED_INVALID naming the file (or URL) and the
 * byte offset; no advisory of a feed that failed reaches a plan.
 *
 * Memory stays flat: the file is read in 64 KiB chunks (a larger chunk is kept alive by the
 * record pieces cut from it until the garbage collector runs, which costs tens of MiB over a
 * 160 MB feed), and with `keep` only the advisories of the items it names are retained (the
 * fleet's, a small share of a feed of ~42,500 records); every record is still checked.
 */
import { createReadStream } from 'node:fs';
import { SvcError } from '../errors.js';
import type { Advisory } from '../types.js';
import { createSplitter, SplitError } from './split.js';
import { isSvcHeader, svcAdvisory, svcTrailerCount } from './svc-format.js';
import { type FeedFilter, RecordError, wordfenceAdvisories } from './wordfence.js';

export type FeedFormat = 'wordfence' | 'svc';

export interface FeedRead {
  /** The advisories `keep` kept (all without it). */
  advisories: Advisory[];
  /** Records read and checked, kept or not. */
  records: number;
  bytes: number;
}

export interface ReadFeedOptions {
  /** How errors name the feed (a file path, or the URL it was downloaded from); default the path. */
  label?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Keep only the advisories of these items (checked, then dropped as they are read). */
  keep?: FeedFilter | undefined;
}

const CHUNK_BYTES = 64 * 1024;

/** `label`: how the error names the feed (a file path, or the URL it was downloaded from). */
function invalid(label: string, offset: number, message: string, cause?: unknown): SvcError {
  return new SvcError('FEED_INVALID', `${label}: byte ${offset}: ${message}; the feed was not used`, {
    hint: 'fix or replace the feed file (a download is tried again on the next run)',
    details: { offset },
    cause,
  });
}

async function readWordfence(path: string, label: string, options: ReadFeedOptions): Promise<FeedRead> {
  const { signal, keep } = options;
  const advisories: Advisory[] = [];
  let records = 0;
  const splitter = createSplitter((record, offset) => {
    records++;
    try {
      for (const advisory of wordfenceAdvisories(record, keep)) advisories.push(advisory);
    } catch (error) {
      if (error instanceof RecordError) throw invalid(label, offset, error.message);
      throw error;
    }
  });
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES, signal }))
      splitter.push(chunk as Buffer);
    splitter.end();
  } catch (error) {
    if (error instanceof SplitError) throw invalid(label, error.offset, error.message);
    throw error;
  }
  return { advisories, records, bytes: splitter.offset };
}

async function readSvc(path: string, label: string, options: ReadFeedOptions): Promise<FeedRead> {
  const { signal, keep } = options;
  const advisories: Advisory[] = [];
  let records = 0;
  let offset = 0;
  let rest = '';
  let restOffset = 0;
  let header = false;
  let trailer: number | undefined;
  const line = (text: string, at: number) => {
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw invalid(label, at, `a line that is not JSON (${(error as Error).message})`);
    }
    try {
      if (!header) {
        if (!isSvcHeader(value))
          throw new RecordError('the first line is not {"format":"svc-advisories","version":1}');
        header = true;
      } else if (trailer !== undefined) throw new RecordError('a line after the trailer');
      else {
        trailer = svcTrailerCount(value);
        if (trailer === undefined) {
          const advisory = svcAdvisory(value);
          records++;
          if (!keep || keep(advisory.kind, advisory.slug)) advisories.push(advisory);
        } else if (trailer !== records)
          throw new RecordError(`the trailer counts ${trailer} advisories, the file holds ${records}`);
      }
    } catch (error) {
      if (error instanceof RecordError) throw invalid(label, at, error.message);
      throw error;
    }
  };
  for await (const chunk of createReadStream(path, {
    encoding: 'utf8',
    highWaterMark: CHUNK_BYTES,
    signal,
  })) {
    const text = rest + (chunk as string);
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      const lineText = text.slice(start, end);
      line(lineText, restOffset);
      restOffset += Buffer.byteLength(lineText) + 1;
      start = end + 1;
    }
    rest = text.slice(start);
    offset += Buffer.byteLength(chunk as string);
  }
  line(rest, restOffset);
  if (trailer === undefined)
    throw invalid(label, offset, `the file ends without its trailer {"end":true,"count":N}: truncated`);
  return { advisories, records, bytes: offset };
}

export async function readFeedFile(
  path: string,
  format: FeedFormat,
  options: ReadFeedOptions = {},
): Promise<FeedRead> {
  const label = options.label ?? path;
  try {
    return await (format === 'svc' ? readSvc(path, label, options) : readWordfence(path, label, options));
  } catch (error) {
    if (error instanceof SvcError) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === 'ABORT_ERR')
      throw new SvcError('INTERRUPTED', `reading ${label} was interrupted`, { cause: error });
    throw new SvcError('IO_ERROR', `cannot read the feed ${label} (${String(code ?? error)})`, {
      cause: error,
    });
  }
}
