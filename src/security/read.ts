/**
 * Reads a feed file, streamed, into advisories: all of it or nothing. Any malformed record,
 * frame or truncation refuses the whole feed with FEED_INVALID naming the file (or URL) and the
 * byte offset; no advisory of a feed that failed reaches a plan.
 */
import { createReadStream } from 'node:fs';
import { SvcError } from '../errors.js';
import type { Advisory } from '../types.js';
import { createSplitter, SplitError } from './split.js';
import { isSvcHeader, svcAdvisory, svcTrailerCount } from './svc-format.js';
import { RecordError, wordfenceAdvisories } from './wordfence.js';

export type FeedFormat = 'wordfence' | 'svc';

export interface FeedRead {
  advisories: Advisory[];
  records: number;
  bytes: number;
}

/** `label`: how the error names the feed (a file path, or the URL it was downloaded from). */
function invalid(label: string, offset: number, message: string, cause?: unknown): SvcError {
  return new SvcError('FEED_INVALID', `${label}: byte ${offset}: ${message}; the feed was not used`, {
    hint: 'fix or replace the feed file (a download is tried again on the next run)',
    details: { offset },
    cause,
  });
}

async function readWordfence(path: string, label: string, signal?: AbortSignal): Promise<FeedRead> {
  const advisories: Advisory[] = [];
  let records = 0;
  const splitter = createSplitter((record, offset) => {
    records++;
    try {
      for (const advisory of wordfenceAdvisories(record)) advisories.push(advisory);
    } catch (error) {
      if (error instanceof RecordError) throw invalid(label, offset, error.message);
      throw error;
    }
  });
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20, signal }))
      splitter.push(chunk as Buffer);
    splitter.end();
  } catch (error) {
    if (error instanceof SplitError) throw invalid(label, error.offset, error.message);
    throw error;
  }
  return { advisories, records, bytes: splitter.offset };
}

async function readSvc(path: string, label: string, signal?: AbortSignal): Promise<FeedRead> {
  const advisories: Advisory[] = [];
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
        if (trailer === undefined) advisories.push(svcAdvisory(value));
        else if (trailer !== advisories.length)
          throw new RecordError(
            `the trailer counts ${trailer} advisories, the file holds ${advisories.length}`,
          );
      }
    } catch (error) {
      if (error instanceof RecordError) throw invalid(label, at, error.message);
      throw error;
    }
  };
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20, signal })) {
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
  return { advisories, records: advisories.length, bytes: offset };
}

export async function readFeedFile(
  path: string,
  format: FeedFormat,
  label = path,
  signal?: AbortSignal,
): Promise<FeedRead> {
  try {
    return await (format === 'svc' ? readSvc(path, label, signal) : readWordfence(path, label, signal));
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
