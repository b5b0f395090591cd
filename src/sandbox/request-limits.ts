import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The request-size limits of a real web server in front of the dashboard. nginx's default
 * `large_client_header_buffers 4 8k` refuses a request line longer than 8 KiB with 414 and a
 * header block it cannot buffer with an error of its own; the sandbox answers 431 for the header
 * block (RFC 6585), so a client that builds an over-long query or header is caught by the suite.
 * 0 turns a limit off.
 */
export interface RequestLimits {
  /** Bytes of `METHOD target HTTP/x.y`; default 8192. */
  requestLine: number;
  /** Bytes of all header lines (`name: value\r\n` each); default 8192. */
  headerBlock: number;
}

export const DEFAULT_REQUEST_LIMITS: RequestLimits = { requestLine: 8192, headerBlock: 8192 };

/** Node's own parser limit must sit above ours so the sandbox, not node, decides. */
export function parserHeaderLimit(limits: RequestLimits): number {
  if (limits.requestLine === 0 || limits.headerBlock === 0) return 1024 * 1024;
  return Math.max(16 * 1024, 2 * (limits.requestLine + limits.headerBlock));
}

/** Answers an over-long request the way the web server would (an HTML page); true when it did. */
export function refuseOversized(req: IncomingMessage, res: ServerResponse, limits: RequestLimits): boolean {
  const line = Buffer.byteLength(`${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/${req.httpVersion}`);
  if (limits.requestLine > 0 && line > limits.requestLine) {
    htmlError(res, 414, 'Request-URI Too Large');
    return true;
  }
  if (limits.headerBlock > 0 && headerBytes(req.rawHeaders) > limits.headerBlock) {
    htmlError(res, 431, 'Request Header Fields Too Large');
    return true;
  }
  return false;
}

function headerBytes(raw: readonly string[]): number {
  let bytes = 0;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    bytes += Buffer.byteLength(raw[i] as string) + Buffer.byteLength(raw[i + 1] as string) + 4;
  }
  return bytes;
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
