import { nsCode, type SandboxContext } from '../context.js';
import type { FleetSite } from '../fleet-types.js';
import { errorReply, isRecord, type Reply, type SandboxRequest } from '../http-util.js';
import { parsePhpQuery } from '../php-query.js';

/** A REST parameter from the JSON body or the query string (the body wins). */
export function param(req: SandboxRequest, name: string): unknown {
  if (isRecord(req.body) && name in req.body) return req.body[name];
  const parsed = parsePhpQuery(req.rawQuery);
  return parsed[name];
}

/** A single value, a comma/space list or an array → list of strings. */
export function listParam(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  const parts = Array.isArray(value) ? value.map(String) : String(value).split(/[\s,]+/);
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

/** `include`/`exclude`: site IDs only; a non-numeric value becomes 0 (PHP absint). */
export function idListParam(value: unknown): number[] {
  return listParam(value).map((p) => (/^\d+/.test(p) ? Number.parseInt(p, 10) : 0));
}

/** Per-site REST lookup; an unknown site is 404 with the ID or domain flavour of the code. */
export function restSite(ctx: SandboxContext, idOrDomain: string): FleetSite | Reply {
  const site = ctx.store.resolve(idOrDomain);
  if (site) return site;
  return /^\d+$/.test(idOrDomain)
    ? errorReply(404, nsCode(ctx, 'rest_invalid_site_id'), 'Invalid or not found ID.')
    : errorReply(404, nsCode(ctx, 'rest_invalid_site_data'), 'Invalid or not found domain.');
}

export function isSite(value: FleetSite | Reply): value is FleetSite {
  return 'url' in value;
}

/** PHP's json_encode writes an empty associative array as `[]` (quirk `emptyMapAsArray`). */
export function phpMap(
  ctx: SandboxContext,
  map: Record<string, unknown>,
): Record<string, unknown> | unknown[] {
  return ctx.quirks.emptyMapAsArray && Object.keys(map).length === 0 ? [] : map;
}
