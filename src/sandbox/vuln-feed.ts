import type { SandboxContext } from './context.js';
import { errorReply, isRecord, ok, type Reply, type SandboxRequest } from './http-util.js';

/**
 * A vulnerability feed the sandbox serves for demos and tests, in the Wordfence Intelligence v3
 * shape (one JSON object of records by id): `PUT /__sandbox/vulnerability-feed` with
 * `{"records": {...}, "api_key": "…"}` stores it, `GET /__sandbox/vulnerability-feed` serves
 * it, refusing a request without `Authorization: Bearer <api_key>` (HTTP 401) as Wordfence does.
 * The sandbox does not read the records: it serves what it was given, byte for byte.
 */
interface StoredFeed {
  json: Buffer;
  apiKey: string | undefined;
}

const feeds = new WeakMap<SandboxContext, StoredFeed>();

export function putVulnerabilityFeed(ctx: SandboxContext, body: unknown): Reply {
  if (!isRecord(body) || !isRecord(body.records))
    return errorReply(400, 'sandbox_invalid_feed', 'Send {"records": {"<id>": {...}}, "api_key": "..."}.');
  const apiKey = typeof body.api_key === 'string' && body.api_key !== '' ? body.api_key : undefined;
  feeds.set(ctx, { json: Buffer.from(JSON.stringify(body.records)), apiKey });
  return ok({ records: Object.keys(body.records).length });
}

export function getVulnerabilityFeed(ctx: SandboxContext, req: SandboxRequest): Reply {
  const feed = feeds.get(ctx);
  if (!feed)
    return errorReply(404, 'sandbox_no_feed', 'No feed was stored (PUT /__sandbox/vulnerability-feed).');
  if (feed.apiKey !== undefined && req.headers.authorization !== `Bearer ${feed.apiKey}`)
    return errorReply(401, 'unauthorized', 'A valid API key is required.');
  return { status: 200, body: undefined, json: feed.json };
}
