import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AbilityInfo } from './abilities/catalogue.js';
import { abilityOfPath, handleAbilities } from './abilities/endpoint.js';
import type { SandboxContext } from './context.js';
import type { FaultRule } from './faults.js';
import {
  BodyError,
  errorReply,
  noRoute,
  ok,
  type Reply,
  readJsonBody,
  type SandboxRequest,
} from './http-util.js';
import { handleIntrospection } from './introspect.js';
import { advanceJobs } from './job-runner.js';
import type { StateWriter } from './persist.js';
import { type RequestLimits, refuseOversized } from './request-limits.js';
import { matchRest, type Route } from './rest/router.js';
import { SITE_PAGES_PREFIX } from './site-pages.js';

export interface ServerParts {
  ctx: SandboxContext;
  catalogue: AbilityInfo[];
  restTable: Route[];
  writer: StateWriter;
  /** Request line and header block limits of the web server in front of the dashboard. */
  limits: RequestLimits;
  /** Closes the listener for `ms` so new connections are refused (ECONNREFUSED), then reopens it. */
  refuseFor(ms: number): void;
}

const ABILITIES_PREFIX = '/wp-json/wp-abilities/v1/';

/**
 * The request handler: parse, count, apply faults, dispatch to introspection / REST v2 /
 * abilities, flush persisted state, send. Never throws: a handler bug becomes a 500 envelope.
 */
export function createHandler(parts: ServerParts): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (refuseOversized(req, res, parts.limits)) {
      parts.ctx.stats.countRequest('refused: too large');
      return;
    }
    handle(parts, req, res).catch((error: unknown) => {
      if (!res.headersSent)
        send(parts, res, 'error', errorReply(500, 'internal_server_error', String(error)));
      else res.destroy();
    });
  };
}

async function handle(parts: ServerParts, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { ctx } = parts;
  const started = performance.now();
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const method = (req.method ?? 'GET').toUpperCase();
  let body: unknown;
  let bodyError: Reply | undefined;
  try {
    body = method === 'GET' || method === 'HEAD' ? undefined : await readJsonBody(req);
  } catch (error) {
    if (!(error instanceof BodyError)) throw error;
    bodyError = error.reply;
  }
  const sreq: SandboxRequest = {
    method,
    path: url.pathname,
    query: url.searchParams,
    rawQuery: url.search.replace(/^\?/, ''),
    headers: req.headers,
    body,
    remoteAddress: req.socket.remoteAddress ?? '',
    secure: 'encrypted' in req.socket,
  };
  if (url.pathname.startsWith('/__sandbox/')) {
    const reply = bodyError ?? handleIntrospection(ctx, sreq, url.pathname.slice('/__sandbox/'.length));
    parts.writer.flush();
    send(parts, res, 'sandbox', reply);
    return;
  }
  if (url.pathname.startsWith(SITE_PAGES_PREFIX)) res.on('close', ctx.sitePages.enter());
  // WordPress cron runs on ordinary traffic: due job chunks are processed before the request.
  advanceJobs(ctx);
  const { route, ability, dispatch } = classify(parts, sreq);
  ctx.stats.countRequest(route);
  const faults = ctx.faults.decide({ method, path: url.pathname, ability });
  for (const fault of faults) if (fault.kind === 'latency') await sleep(fault.delayMs ?? 200);
  const early = faults.find(
    (f) =>
      !f.after &&
      (f.kind === 'status' || f.kind === 'rate-limit' || f.kind === 'reset' || f.kind === 'refuse'),
  );
  if (early) return failWith(parts, req, res, route, early);
  const reply = bodyError ?? dispatch();
  parts.writer.flush();
  if (reply.siteWork !== undefined) {
    ctx.stats.addSiteWork(ability ?? route, reply.siteWork.sites);
    const ms = reply.siteWork.timed ? reply.siteWork.sites * ctx.siteCost.msPerSite : 0;
    if (ms > 0) await sleep(ms);
  }
  const late = faults.find(
    (f) =>
      f.after &&
      (f.kind === 'status' || f.kind === 'rate-limit' || f.kind === 'reset' || f.kind === 'refuse'),
  );
  if (late) return failWith(parts, req, res, route, late);
  const shaping = faults.find((f) => f.kind === 'oversized' || f.kind === 'slow-body');
  await send(parts, res, route, reply, shaping);
  ctx.stats.addTime(route, performance.now() - started);
}

function classify(
  parts: ServerParts,
  req: SandboxRequest,
): { route: string; ability?: string; dispatch: () => Reply } {
  const { ctx } = parts;
  const restPrefix = `/wp-json/${ctx.ns}/v2/`;
  if (req.path.startsWith(restPrefix) && ctx.surfaces.rest) {
    const match = matchRest(parts.restTable, ctx, req, req.path.slice(restPrefix.length));
    return match ? { route: match.route, dispatch: match.reply } : { route: 'no route', dispatch: noRoute };
  }
  if ((req.path === '/wp-json/' || req.path === '/wp-json') && req.method === 'GET') {
    return { route: 'GET /wp-json/', dispatch: () => restIndex(ctx) };
  }
  if (req.path.startsWith(ABILITIES_PREFIX) && ctx.surfaces.abilities) {
    const rest = req.path.slice(ABILITIES_PREFIX.length);
    const ability = abilityOfPath(rest);
    const route = ability ? `${req.method} /abilities/:name/run` : `${req.method} /abilities`;
    const dispatch = (): Reply => handleAbilities(ctx, req, rest, parts.catalogue);
    return ability ? { route, ability, dispatch } : { route, dispatch };
  }
  if (req.path.startsWith(SITE_PAGES_PREFIX))
    return { route: 'GET /__sites/:id/', dispatch: () => ctx.sitePages.answer(ctx, req) };
  return { route: 'no route', dispatch: noRoute };
}

/**
 * WordPress's REST index, reduced to what clients read from it: the route namespaces (the
 * dashboard's `<ns>/v2` beside WordPress's own, and the abilities API's when it is served).
 */
function restIndex(ctx: SandboxContext): Reply {
  const namespaces = ['oembed/1.0', ...(ctx.surfaces.rest ? [`${ctx.ns}/v2`] : []), 'wp/v2'];
  if (ctx.surfaces.abilities) namespaces.push('wp-abilities/v1');
  return ok({ name: 'sandbox', url: '', namespaces, authentication: {}, routes: {} });
}

async function failWith(
  parts: ServerParts,
  req: IncomingMessage,
  res: ServerResponse,
  route: string,
  fault: FaultRule,
): Promise<void> {
  if (fault.kind === 'refuse') parts.refuseFor(fault.delayMs ?? 500);
  if (fault.kind === 'reset' || fault.kind === 'refuse') {
    req.socket.resetAndDestroy();
    return;
  }
  if (fault.kind === 'rate-limit') {
    const retryAfter = String(fault.retryAfter ?? 1);
    const reply = errorReply(429, 'rest_too_many_requests', 'Too many requests. Please try again later.');
    await send(parts, res, route, { ...reply, headers: { 'Retry-After': retryAfter } });
    return;
  }
  const status = fault.status ?? 503;
  await send(
    parts,
    res,
    route,
    errorReply(status, 'sandbox_injected_fault', `Injected fault: HTTP ${status}.`),
  );
}

async function send(
  parts: ServerParts,
  res: ServerResponse,
  route: string,
  reply: Reply,
  shaping?: FaultRule,
): Promise<void> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=UTF-8',
    ...reply.headers,
  };
  let bytes = Buffer.isBuffer(reply.json)
    ? reply.json
    : Buffer.from(reply.json ?? JSON.stringify(reply.body));
  if (shaping?.kind === 'oversized') {
    // Valid JSON padded with trailing whitespace up to the requested size.
    const target = shaping.bytes ?? 11 * 1024 * 1024;
    if (bytes.length < target) bytes = Buffer.concat([bytes, Buffer.alloc(target - bytes.length, ' ')]);
  }
  parts.ctx.stats.addBytes(route, bytes.length);
  const streamed =
    shaping?.kind === 'slow-body' || (shaping?.kind === 'oversized' && shaping.chunked === true);
  if (!streamed) headers['Content-Length'] = String(bytes.length);
  res.writeHead(reply.status, headers);
  if (!streamed) {
    res.end(bytes);
    return;
  }
  const chunk = shaping?.kind === 'slow-body' ? Math.max(1, shaping.bytes ?? 256) : 64 * 1024;
  const delay = shaping?.kind === 'slow-body' ? (shaping.delayMs ?? 50) : 0;
  for (let offset = 0; offset < bytes.length; offset += chunk) {
    if (res.destroyed) return;
    res.write(bytes.subarray(offset, offset + chunk));
    if (delay > 0) await sleep(delay);
  }
  res.end();
}
