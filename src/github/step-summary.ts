import type * as nodeFs from 'node:fs';
import { SvcError } from '../errors.js';

/**
 * Appends markdown to `$GITHUB_STEP_SUMMARY`. GitHub drops a step's whole summary (and shows an
 * error) when the file exceeds 1 MiB, so what is appended is cut to the space left, in bytes of
 * UTF-8, at a line break where possible and never inside a character, with a note saying so.
 */
export const STEP_SUMMARY_LIMIT_BYTES = 1024 * 1024;

export type SummaryFs = Pick<typeof nodeFs, 'appendFileSync' | 'statSync'>;

export interface SummaryWrite {
  writtenBytes: number;
  truncated: boolean;
}

const NOTE =
  '\n\n> [!WARNING]\n> Cut to fit the 1 MiB step-summary limit; the full plan is in the JSON artifact.\n';

export function appendStepSummary(
  fs: SummaryFs,
  path: string,
  markdown: string,
  limitBytes: number = STEP_SUMMARY_LIMIT_BYTES,
): SummaryWrite {
  const used = currentSize(fs, path);
  const text = markdown.endsWith('\n') ? markdown : `${markdown}\n`;
  const room = limitBytes - used;
  let out = text;
  let truncated = false;
  if (Buffer.byteLength(text, 'utf8') > room) {
    truncated = true;
    const noteBytes = Buffer.byteLength(NOTE, 'utf8');
    out = room > noteBytes ? cutToBytes(text, room - noteBytes) + NOTE : '';
  }
  if (out === '') return { writtenBytes: 0, truncated };
  try {
    fs.appendFileSync(path, out, 'utf8');
  } catch (error) {
    throw new SvcError('IO_ERROR', `cannot write the step summary ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return { writtenBytes: Buffer.byteLength(out, 'utf8'), truncated };
}

function currentSize(fs: SummaryFs, path: string): number {
  try {
    return fs.statSync(path).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw new SvcError('IO_ERROR', `cannot read the step summary ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** The longest prefix of `text` within `maxBytes` UTF-8 bytes, ending at a line break if one is near. */
function cutToBytes(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  let end = Math.max(0, Math.min(maxBytes, bytes.length));
  // A continuation byte (10xxxxxx) at the cut means a character straddles it: cut before its start.
  while (end > 0 && end < bytes.length && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  let prefix = bytes.subarray(0, end).toString('utf8');
  const lineEnd = prefix.lastIndexOf('\n');
  if (lineEnd > prefix.length / 2) prefix = prefix.slice(0, lineEnd + 1);
  return prefix;
}
