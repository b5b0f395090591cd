import { SvcError } from '../../errors.js';

/**
 * Longest request line svc-gitops sends: nginx's default buffer (`large_client_header_buffers
 * 4 8k`) refuses a longer `GET /path?query HTTP/1.1` with 414, and other servers sit at or above
 * it. Listings that take site IDs in the query are split so every request fits.
 */
export const MAX_REQUEST_LINE_BYTES = 8192;

/** Bytes of `METHOD /base/path?query HTTP/1.1` as the server receives it. */
export function requestLineBytes(basePath: string, method: string, path: string, query: string): number {
  return (
    Buffer.byteLength(method) +
    1 +
    Buffer.byteLength(basePath) +
    Buffer.byteLength(path) +
    (query ? 1 + Buffer.byteLength(query) : 0) +
    ' HTTP/1.1'.length
  );
}

/**
 * A request svc-gitops built too long is its own bug: refused before it leaves. (A front end that
 * passes a caller's arguments into a query, as the tool server's read abilities do, tells its
 * caller instead: isRequestLineTooLong.)
 */
export function requestLineTooLong(method: string, path: string, bytes: number): SvcError {
  return new SvcError(
    'INTERNAL',
    `${method} ${path}: the request line would be ${bytes} bytes, over the ${MAX_REQUEST_LINE_BYTES} a web server accepts`,
    { details: { requestLineBytes: bytes } },
  );
}

/** The request line length of a request refused by requestLineTooLong, else undefined. */
export function isRequestLineTooLong(error: unknown): number | undefined {
  if (!(error instanceof SvcError) || error.code !== 'INTERNAL') return undefined;
  const bytes = error.details.requestLineBytes;
  return typeof bytes === 'number' ? bytes : undefined;
}
