import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The request-size limits of a real web server in front of the dashboard, counted as nginx's
 * default `large_client_header_buffers 4 8k` counts (checked against nginx 1.22 itself by
 * test/e2e/behind-nginx.test.ts): the request line with its CRLF must fit one buffer (else 414),
 * and so must each header line with its CRLF; the head is read into a first 1 KiB buffer
 * (`client_header_buffer_size`), and a line that does not fit the rest of a buffer moves whole
 * into the next of four large ones. A head that does not fit gets nginx's "400 Request Header Or
 * Cookie Too Large"; the sandbox answers 431 (RFC 6585), so a client that builds an over-long
 * query or header is caught by the suite. 0 turns a limit off.
 */
export interface RequestLimits {
  /** Bytes of `METHOD target HTTP/x.y\r\n`; default 8192. */
  requestLine: number;
  /** Bytes of one large header buffer: each `name: value\r\n` must fit one; default 8192. */
  headerBlock: number;
}

export const DEFAULT_REQUEST_LIMITS: RequestLimits = { requestLine: 8192, headerBlock: 8192 };
const LARGE_BUFFERS = 4;
const FIRST_BUFFER = 1024;

/** Node's own parser limit must sit above ours so the sandbox, not node, decides. */
export function parserHeaderLimit(limits: RequestLimits): number {
  if (limits.requestLine === 0 || limits.headerBlock === 0) return 1024 * 1024;
  return Math.max(64 * 1024, 2 * (FIRST_BUFFER + limits.requestLine + LARGE_BUFFERS * limits.headerBlock));
}

/** Answers an over-long request the way the web server would (an HTML page); true when it did. */
export function refuseOversized(req: IncomingMessage, res: ServerResponse, limits: RequestLimits): boolean {
  const line = Buffer.byteLength(`${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/${req.httpVersion}\r\n`);
  if (limits.requestLine > 0 && line > limits.requestLine) {
    htmlError(res, 414, 'Request-URI Too Large');
    return true;
  }
  // With the request line's limit off, its length does not count against the header buffers.
  const counted = limits.requestLine > 0 ? line : 0;
  if (limits.headerBlock > 0 && !headFits(counted, req.rawHeaders, limits.headerBlock)) {
    htmlError(res, 431, 'Request Header Fields Too Large');
    return true;
  }
  return false;
}

/**
 * Lays the head into nginx's buffers: the request line, each header line, then the empty line
 * that ends the head. A line moves whole to a fresh buffer when the rest of the current one is
 * too short; there are LARGE_BUFFERS of them, and no line may outgrow one.
 */
function headFits(requestLine: number, raw: readonly string[], size: number): boolean {
  const lines = [requestLine];
  for (let i = 0; i + 1 < raw.length; i += 2) lines.push(Buffer.byteLength(`${raw[i]}: ${raw[i + 1]}\r\n`));
  lines.push(2);
  let room = FIRST_BUFFER;
  let spare = LARGE_BUFFERS;
  for (const bytes of lines) {
    if (bytes <= room) {
      room -= bytes;
      continue;
    }
    if (bytes > size || spare === 0) return false;
    spare--;
    room = size - bytes;
  }
  return true;
}

function htmlError(res: ServerResponse, status: number, title: string): void {
  const body = `<html>\r\n<head><title>${status} ${title}</title></head>\r\n<body>\r\n<center><h1>${status} ${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
  res.writeHead(status, {
    'Content-Type': 'text/html',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  });
  res.end(body);
}
