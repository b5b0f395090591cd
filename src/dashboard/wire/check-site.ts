import { isObject, type Json, Reader } from './json.js';

/** What `check-site-v1` says about one site. */
export interface WireSiteCheck {
  siteId: number;
  online: boolean;
  httpCode: number;
  /** Seconds, as the dashboard reports it. */
  responseTime: number;
}

/**
 * `{site_id, response_time, checked, site, status: {online, http_code, response_time}}` (the
 * shipped catalogue's output schema). A missing `status` object means the dashboard could not
 * check the site: reported offline with HTTP 0, never healthy.
 */
export function parseSiteCheck(body: Json | undefined, where: string, siteId: number): WireSiteCheck {
  const r = Reader.of(body, where);
  const status = isObject(r.raw('status')) ? r.object('status') : undefined;
  const seconds = (reader: Reader | undefined, key: string): number | undefined => {
    const value = reader?.raw(key);
    return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
  };
  return {
    siteId: r.optionalInt('site_id') ?? siteId,
    online: status?.has('online') === true && status.success('online'),
    httpCode: status?.optionalInt('http_code') ?? 0,
    responseTime: seconds(status, 'response_time') ?? seconds(r, 'response_time') ?? 0,
  };
}
