import { SvcError } from '../../errors.js';

/**
 * nginx's default `large_client_header_buffers 4 8k`, counted as nginx counts: the request line
 * and each header line must fit one 8 KiB buffer with their CRLF (a request line of 8,192 bytes
 * including CRLF is served, 8,193 gets 414), and the whole head fits the first 1 KiB buffer
 * (`client_header_buffer_size`) and then four 8 KiB buffers, a line that does not fit the rest of
 * one moving whole to the next. Other servers sit at or above it. Listings that take site IDs in
 * the query are split so every request fits.
 */
export const MAX_REQUEST_LINE_BYTES = 8192;
const HEADER_BUFFERS = 4;
const FIRST_BUFFER_BYTES = 1024;

/** Bytes of `METHOD /base/path?query HTTP/1.1\r\n` as the server receives it. */
export function requestLineBytes(basePath: string, method: string, path: string, query: string): number {
  return (
    Buffer.byteLength(method) +
    1 +
    Buffer.byteLength(basePath) +
    Buffer.byteLength(path) +
    (query ? 1 + Buffer.byteLength(query) : 0) +
    ' HTTP/1.1\r\n'.length
  );
}

/** Bytes of `name: value\r\n`. */
export function headerLineBytes(name: string, value: string): number {
  return Buffer.byteLength(name) + 2 + Buffer.byteLength(value) + 2;
}

/**
 * The first header (by name) whose line nginx would refuse, or `head` when the head as a whole
 * needs more buffers than nginx has; undefined when it fits. Takes the request line's bytes and
 * each header's name and line bytes, in the order they are sent.
 */
export function headOverflow(
  requestLine: number,
  headers: ReadonlyArray<readonly [name: string, bytes: number]>,
): string | undefined {
  let used = 0;
  let size = FIRST_BUFFER_BYTES;
  let buffers = 0;
  const place = (bytes: number): boolean => {
    if (used + bytes <= size) {
      used += bytes;
      return true;
    }
    if (bytes > MAX_REQUEST_LINE_BYTES || buffers === HEADER_BUFFERS) return false;
    buffers++;
    size = MAX_REQUEST_LINE_BYTES;
    used = bytes;
    return true;
  };
  place(requestLine);
  for (const [name, bytes] of headers) {
    if (bytes > MAX_REQUEST_LINE_BYTES) return name;
    if (!place(bytes)) return 'head';
  }
  // The empty line that ends the head needs its two bytes too.
  return place(2) ? undefined : 'head';
}

/**
 * A request svc-gitops built too long is its own bug: refused before it leaves. (A front end that
 * passes a caller's arguments into a query, as the tool server's read abilities do, tells its
 * caller instead: isRequestLineTooLong.)
 */
export function requestLineTooLong(method: string, path: string, bytes: number): SvcError {
  return new SvcError(
    'INTERNAL',
    `${method} ${path}: the request line would be ${bytes} bytes with its CRLF, over the ${MAX_REQUEST_LINE_BYTES} a web server accepts`,
    { details: { requestLineBytes: bytes } },
  );
}

/** A head nginx would refuse (400/431). Names the header, never its value (it may be a credential). */
export function requestHeadTooLarge(method: string, path: string, what: string): SvcError {
  const part =
    what === 'head'
      ? `the request's headers would need more than ${HEADER_BUFFERS} buffers of ${MAX_REQUEST_LINE_BYTES} bytes`
      : `the ${what} header line would be over the ${MAX_REQUEST_LINE_BYTES} bytes a web server accepts`;
  return new SvcError('INTERNAL', `${method} ${path}: ${part}`);
}

/** The request line length of a request refused by requestLineTooLong, else undefined. */
export function isRequestLineTooLong(error: unknown): number | undefined {
  if (!(error instanceof SvcError) || error.code !== 'INTERNAL') return undefined;
  const bytes = error.details.requestLineBytes;
  return typeof bytes === 'number' ? bytes : undefined;
}

/** What the head of one request is made of, as the transport sends it. */
export interface RequestHead {
  method: string;
  path: string;
  query: string;
  /** Our headers; undici adds Host and Connection before them and Content-Length after. */
  headers: Readonly<Record<string, string>>;
  hasBody: boolean;
}

/** Throws the INTERNAL error of a request whose line or head nginx would refuse; else nothing. */
export function assertHeadFits(basePath: string, host: string, head: RequestHead): void {
  const line = requestLineBytes(basePath, head.method, head.path, head.query);
  if (line > MAX_REQUEST_LINE_BYTES) throw requestLineTooLong(head.method, head.path, line);
  const headers: Array<[string, number]> = [
    ['host', headerLineBytes('host', host)],
    ['connection', headerLineBytes('connection', 'keep-alive')],
  ];
  for (const [name, value] of Object.entries(head.headers))
    headers.push([name, headerLineBytes(name, value)]);
  // A body's length is at most 16 digits.
  if (head.hasBody) headers.push(['content-length', headerLineBytes('content-length', '9'.repeat(16))]);
  const overflow = headOverflow(line, headers);
  if (overflow !== undefined) throw requestHeadTooLarge(head.method, head.path, overflow);
}
