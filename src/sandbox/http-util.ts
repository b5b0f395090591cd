import type { IncomingMessage } from 'node:http';

/** What a route handler answers; the server serialises it (and may apply faults). */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Pre-serialised JSON of `body` (hot paths build it from cached fragments); wins over `body`. */
  json?: string | Buffer;
  /**
   * Sites the dashboard processed to answer (SiteCost): always counted; paid in time when
   * `timed` and the cost is on (list-updates-v1, the listing the model is measured on).
   */
  siteWork?: { sites: number; timed: boolean };
}

/** A parsed request as handlers see it. */
export interface SandboxRequest {
  method: string;
  /** Path without query, percent-decoding left to the handlers. */
  path: string;
  query: URLSearchParams;
  rawQuery: string;
  headers: IncomingMessage['headers'];
  /** Parsed JSON body; undefined when there was none. */
  body: unknown;
  remoteAddress: string;
  secure: boolean;
}

/** The WordPress error envelope `{code, message, data:{status}}` plus optional extras. */
export function errorReply(
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
): Reply {
  return { status, body: { code, message, data: { status }, ...extra } };
}

export function ok(body: unknown, headers?: Record<string, string>): Reply {
  return headers ? { status: 200, body, headers } : { status: 200, body };
}

export const NO_ROUTE_MESSAGE = 'No route was found matching the URL and request method.';

export function noRoute(): Reply {
  return errorReply(404, 'rest_no_route', NO_ROUTE_MESSAGE);
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;

export class BodyError extends Error {
  constructor(readonly reply: Reply) {
    super(String((reply.body as { message?: string }).message));
  }
}

/** Reads and parses a JSON body. Malformed JSON → 400 `rest_invalid_json`, as WordPress does. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES)
      throw new BodyError(errorReply(413, 'rest_request_too_large', 'Request body is too large.'));
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  const type = String(req.headers['content-type'] ?? '');
  if (type.includes('application/x-www-form-urlencoded'))
    return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'syntax error';
    throw new BodyError(
      errorReply(400, 'rest_invalid_json', 'Invalid JSON body passed.', { additional_data: [{ reason }] }),
    );
  }
}

export function isLoopback(address: string): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
