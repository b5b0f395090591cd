import { SvcError } from '../../errors.js';
import { settingVariable } from '../../settings/types.js';
import type { Connection } from '../connection.js';
import type { HttpRequest } from '../transport/http.js';
import { statusFailure } from '../transport/status.js';
import type { Json } from '../wire/json.js';

/**
 * One REST v2 call with the bearer key. Throws UNSUPPORTED when no key is configured, and the
 * mapped status error for any non-2xx answer.
 */
export async function restCall(
  conn: Connection,
  req: Omit<HttpRequest, 'headers' | 'path'> & { route: string },
): Promise<Json | undefined> {
  if (conn.restAuth.kind === 'none') {
    throw new SvcError('UNSUPPORTED', `the REST API route ${req.route} needs a REST API key`, {
      hint: `Set ${settingVariable('token', conn.product)} (the key shown by the dashboard as <secret>==<key>).`,
    });
  }
  const path = `${conn.restBase}${req.route}`;
  const { route: _route, ...rest } = req;
  const res = await conn.transport.send({ ...rest, path, headers: conn.restAuth.headers });
  if (res.status < 200 || res.status >= 300) {
    throw statusFailure(res, {
      method: req.method,
      path,
      what: `REST ${req.method} ${req.route}`,
      surface: 'rest',
      auth: conn.restAuth.kind,
      secrets: conn.secrets,
      url: conn.url,
      product: conn.product,
    });
  }
  return res.body;
}
