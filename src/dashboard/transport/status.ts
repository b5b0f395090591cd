import { SvcError } from '../../errors.js';
import { settingVariable } from '../../settings/types.js';
import { isObject, own } from '../wire/json.js';
import { notJsonHint, redact } from './failures.js';
import type { HttpResponse } from './http.js';

export interface FailureContext {
  method: string;
  path: string;
  /** The ability (`svc/list-updates-v1`) or REST route the call was for. */
  what: string;
  surface: 'abilities' | 'rest';
  /** Which credential was offered. */
  auth: 'basic' | 'bearer' | 'none';
  secrets: readonly string[];
  /** The dashboard URL (never with credentials), named when the reply was not the dashboard's. */
  url: string;
  /** The product whose variables the hints name (settingVariable). */
  product: string;
}

/** The WordPress error envelope `{code, message, data:{status}}`, read defensively. */
export function errorEnvelope(body: unknown): { code: string | undefined; message: string | undefined } {
  if (!isObject(body)) return { code: undefined, message: undefined };
  const code = own(body, 'code');
  const message = own(body, 'message') ?? own(body, 'error');
  return {
    code: typeof code === 'string' ? code : undefined,
    message: typeof message === 'string' ? stripTags(message) : undefined,
  };
}

function stripTags(text: string): string {
  return text
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 500);
}

/**
 * A non-2xx response as an SvcError. The code is decided by the status and the dashboard's own
 * error code (every `*_not_found` is NOT_FOUND whatever the status, since the shipped release
 * rewrites some 404s to 403). The dashboard's message is kept, redacted of any secret.
 */
export function statusFailure(res: HttpResponse, ctx: FailureContext): SvcError {
  const error = mappedFailure(res, ctx);
  // A reply that is not JSON came from some web server, not from the dashboard's API: ask
  // whether SVC_URL reaches the dashboard. A 5xx (a proxy's error page is common), 401 and 429
  // keep their own hints, which still apply.
  if (res.notJson === undefined || res.status >= 500 || res.status === 401 || res.status === 429)
    return error;
  return new SvcError(error.code, error.message, {
    hint: notJsonHint(res.status, ctx.url, ctx.product),
    details: error.details,
  });
}

function mappedFailure(res: HttpResponse, ctx: FailureContext): SvcError {
  const envelope = errorEnvelope(res.body);
  const said = envelope.message ? `: ${redact(envelope.message, ctx.secrets)}` : '';
  const tag = envelope.code ? ` ${envelope.code}` : '';
  const notJson = res.notJson ? `: ${res.notJson}` : '';
  const head = `${ctx.what} (${ctx.method} ${ctx.path}) → HTTP ${res.status}${tag}${said}${notJson}`;
  const details = { method: ctx.method, path: ctx.path, status: res.status, dashboardCode: envelope.code };
  if (envelope.code?.endsWith('_not_found') || res.status === 404) {
    return new SvcError('NOT_FOUND', head, { details });
  }
  if (res.status === 401) return authFailure(head, ctx, details);
  if (res.status === 403) {
    return new SvcError('FORBIDDEN', head, {
      hint: 'The user lacks a capability this operation needs (or access to that site); an administrator role suffices.',
      details,
    });
  }
  if (res.status === 429) {
    return new SvcError('RATE_LIMITED', head, {
      hint: `The dashboard is rate limiting: lower rateLimit (${settingVariable('rateLimit', ctx.product)}) or concurrency (${settingVariable('concurrency', ctx.product)}).`,
      details,
    });
  }
  if (res.status === 413) {
    return new SvcError('HTTP_ERROR', head, {
      hint: 'The request carried more items than the dashboard accepts.',
      details,
    });
  }
  return new SvcError('HTTP_ERROR', head, {
    hint:
      res.status >= 500
        ? 'The dashboard failed; check its error log and try again.'
        : 'The dashboard refused the request.',
    details,
  });
}

function authFailure(head: string, ctx: FailureContext, details: Record<string, unknown>): SvcError {
  const [user, password, token] = (['username', 'applicationPassword', 'token'] as const).map((key) =>
    settingVariable(key, ctx.product),
  );
  if (ctx.auth === 'none') {
    return new SvcError('AUTH_FAILED', `${head} (no credentials were sent)`, {
      hint: `Set ${user} and ${password} (the abilities API), or ${token} (REST API v2 only).`,
      details,
    });
  }
  if (ctx.surface === 'abilities' && ctx.auth === 'bearer') {
    return new SvcError('AUTH_FAILED', `${head} (the abilities API does not accept a bearer token)`, {
      hint: `The abilities API needs a username and an application password: set ${user} and ${password} (${token} is only for the REST API).`,
      details,
    });
  }
  if (ctx.surface === 'abilities') {
    return new SvcError('AUTH_FAILED', head, {
      hint: `Check ${user} and ${password} (or the settings file's username and applicationPassword): the username is case-sensitive and must be the user that owns the application password; the password may be given with or without its spaces.`,
      details,
    });
  }
  return new SvcError('AUTH_FAILED', head, {
    hint: `Check ${token} (or the settings file's token): the REST API key must be valid, enabled, and have the read or write permission this call needs.`,
    details,
  });
}

/**
 * Neither API answers below the configured URL (both routes 404): the URL is not the dashboard's
 * site root (it has a path such as /wp-admin), or not the dashboard at all. Names the URL tried,
 * never with credentials.
 */
export function noApiAtUrl(
  url: string,
  tried: readonly string[],
  res: HttpResponse,
  product: string,
): SvcError {
  const variable = settingVariable('dashboardUrl', product);
  const parsed = new URL(url);
  const path = parsed.pathname.replace(/\/+$/, '');
  const shown = parsed.origin + path;
  const notJson = res.notJson ? `; ${res.notJson}` : '';
  const message = `${shown} answered HTTP ${res.status} for the dashboard's API routes (GET ${tried.join(', GET ')})${notJson}`;
  const hint = path
    ? `Set ${variable} to the dashboard's site root, without ${siteRootRest(path)} or another path (e.g. ${parsed.origin}${siteRootPrefix(path)}).`
    : `Is this the dashboard? Check the host and port of ${variable} (${shown}); it should be the dashboard's site root.`;
  return new SvcError('NOT_FOUND', message, { hint, details: { status: res.status, tried } });
}

/** WordPress paths below a site root that a copied address often ends in. */
const BELOW_ROOT = /\/(?:wp-admin|wp-json|wp-login\.php|index\.php)(?:\/.*)?$/;

/** The part of a path after the site root: `/wp-admin` of `/blog/wp-admin/`, else the whole path. */
function siteRootRest(path: string): string {
  return BELOW_ROOT.exec(path)?.[0] ?? path;
}

/** The site root of a path ending in a WordPress path (`/blog` of `/blog/wp-admin`), else ''. */
function siteRootPrefix(path: string): string {
  const match = BELOW_ROOT.exec(path);
  return match ? path.slice(0, match.index) : '';
}
