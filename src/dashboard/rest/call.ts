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
    const failure = statusFailure(res, {
      method: req.method,
      path,
      what: `REST ${req.method} ${req.route}`,
      surface: 'rest',
      auth: conn.restAuth.kind,
      secrets: conn.secrets,
      url: conn.url,
      product: conn.product,
    });
    throw blockedAbilities(failure, conn) ?? failure;
  }
  return res.body;
}

/**
 * On WordPress 6.9+ MainWP's REST controller runs its abilities internally. With the abilities
 * routes blocked in front of WordPress (a security plugin or proxy rule) while MainWP's abilities
 * stay registered, MainWP 6.1.2 answers some REST reads (the ignored listings) with HTTP 500
 * `ability_invalid_input`, and nothing else on REST reads them. Say what to unblock.
 */
/**
 * The routes svc-gitops calls on the abilities API: the catalogue, and each ability's run route
 * (GET for read-only abilities, POST for the others).
 */
function abilityRoutes(conn: Connection): string {
  const base = conn.abilitiesBase;
  return `GET ${base}/abilities (the catalogue) and GET and POST ${base}/abilities/${conn.namespace}/{ability}/run (each ability it runs: list-sites-v1, list-updates-v1, list-ignored-updates-v1 to read, set-ignored-updates-v1, run-updates-v1 and the others to write)`;
}

function blockedAbilities(failure: SvcError, conn: Connection): SvcError | undefined {
  const code = failure.details.dashboardCode;
  if (
    failure.details.status !== 500 ||
    (code !== 'ability_invalid_input' && code !== 'ability_invalid_output')
  )
    return undefined;
  return new SvcError(failure.code, failure.message, {
    hint:
      code === 'ability_invalid_input'
        ? `The dashboard's REST API runs its abilities internally, and they failed: the abilities API routes (${conn.url}${conn.abilitiesBase}/) look blocked for this client. Allow ${conn.abilitiesBase}/ through the security plugin or proxy, so svc-gitops reads through the abilities API: ${abilityRoutes(conn)}.`
        : "An entry of the dashboard's stored lists breaks its ability output (for example an ignore stored under slug 0 by a REST per-slug ignore); check the dashboard's error log.",
    details: failure.details,
    cause: failure,
  });
}
