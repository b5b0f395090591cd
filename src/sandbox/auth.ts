import { timingSafeEqual } from 'node:crypto';
import { nsCode, type SandboxContext } from './context.js';
import type { FleetApiKey, FleetUser, KeyPermission } from './fleet-types.js';
import { errorReply, isLoopback, type Reply, type SandboxRequest } from './http-util.js';

/** Splits the display form `<consumer_secret>==<consumer_key>`. */
export function splitToken(token: string): { secret: string; key: string } {
  const at = token.indexOf('==');
  return at < 0 ? { secret: token, key: '' } : { secret: token.slice(0, at), key: token.slice(at + 2) };
}

/**
 * A bearer token as MainWP reads it (parse_auth_header): `<secret>==<key>`, to which it adds the
 * `cs_` / `ck_` prefixes itself, which is the form its UI shows. A token already carrying them
 * is accepted too: other clients, and older svc-gitops settings, send that form.
 */
export function bearerToken(token: string): { secret: string; key: string } {
  const { secret, key } = splitToken(token);
  const prefixed = (prefix: string, part: string) => (part.startsWith(prefix) ? part : `${prefix}${part}`);
  return { secret: prefixed('cs_', secret), key: prefixed('ck_', key) };
}

/** The form MainWP's UI shows and the sandbox prints: `<secret>==<key>`, without the prefixes. */
export function displayToken(token: string): string {
  const { secret, key } = splitToken(token);
  return `${secret.replace(/^cs_/, '')}==${key.replace(/^ck_/, '')}`;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function neededPermission(method: string): 'read' | 'write' | 'delete' {
  if (method === 'GET' || method === 'HEAD') return 'read';
  return method === 'DELETE' ? 'delete' : 'write';
}

function allows(permission: KeyPermission, needed: 'read' | 'write' | 'delete'): boolean {
  return permission === needed || permission === 'read_write';
}

/**
 * REST v2 authentication (dashboard-facts §2.1): HTTPS-or-loopback first, then Bearer
 * `<secret>==<key>`, Basic `key:secret` or `consumer_key`/`consumer_secret` query parameters,
 * then the key's permission against the method. Returns the refusal, or undefined when allowed.
 */
export function restAuthError(ctx: SandboxContext, req: SandboxRequest): Reply | undefined {
  const code = (suffix: string): string => nsCode(ctx, `rest_authentication_${suffix}`);
  if (!req.secure && !isLoopback(req.remoteAddress)) {
    return errorReply(400, code('bad_request'), `Requests to the ${ctx.ns} REST API must be over HTTPS.`);
  }
  const header = String(req.headers.authorization ?? '');
  let presented: { secret: string; key: string } | undefined;
  if (/^Bearer\s+/i.test(header)) presented = bearerToken(header.replace(/^Bearer\s+/i, '').trim());
  else if (/^Basic\s+/i.test(header)) {
    const decoded = Buffer.from(header.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    presented = {
      key: decoded.slice(0, colon < 0 ? decoded.length : colon),
      secret: colon < 0 ? '' : decoded.slice(colon + 1),
    };
  } else {
    const key = req.query.get('consumer_key');
    const secret = req.query.get('consumer_secret');
    if ((key === null) !== (secret === null))
      return errorReply(401, code('missing_parameter'), 'Invalid OAuth parameter.');
    if (key !== null && secret !== null) presented = { key, secret };
  }
  if (!presented) return errorReply(401, code('error'), 'You are not authenticated.');
  const known = ctx.apiKeys.find((k) => sameText(bearerToken(k.token).key, presented.key));
  if (!known) return errorReply(401, code('disabled_key'), 'The REST API Key are disabled.');
  if (!sameText(bearerToken(known.token).secret, presented.secret))
    return errorReply(401, code('error'), 'Consumer secret is invalid.');
  return permissionError(ctx, known, req.method);
}

function permissionError(ctx: SandboxContext, key: FleetApiKey, method: string): Reply | undefined {
  const needed = neededPermission(method);
  if (allows(key.permission, needed)) return undefined;
  const status = ctx.quirks.restKeyPermission401 ? 401 : 403;
  return errorReply(
    status,
    nsCode(ctx, 'rest_authentication_error'),
    `The API key provided does not have ${needed} permissions.`,
  );
}

export type AbilityCaller = { user: FleetUser | undefined } | { error: Reply };

/** Application passwords ignore every non-alphanumeric character (spaces of the display form). */
function passwordCore(password: string): string {
  return password.replace(/[^A-Za-z0-9]/g, '');
}

/**
 * Abilities API authentication (§2.2): HTTP Basic with a case-sensitive username and an
 * application password. A bearer token is ignored, so the caller is anonymous (user undefined).
 */
export function abilityCaller(ctx: SandboxContext, req: SandboxRequest): AbilityCaller {
  const header = String(req.headers.authorization ?? '');
  if (!/^Basic\s+/i.test(header)) return { user: undefined };
  const decoded = Buffer.from(header.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const username = colon < 0 ? decoded : decoded.slice(0, colon);
  const password = colon < 0 ? '' : decoded.slice(colon + 1);
  const user = ctx.users.find((u) => u.username === username);
  if (!user) {
    return {
      error: errorReply(
        401,
        'invalid_username',
        '<strong>Error</strong>: Unknown username. Check again or try your email address.',
      ),
    };
  }
  if (!sameText(passwordCore(user.applicationPassword), passwordCore(password))) {
    return {
      error: errorReply(
        401,
        'incorrect_password',
        'The provided password is an invalid application password.',
      ),
    };
  }
  return { user };
}
