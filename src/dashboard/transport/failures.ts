import { SvcError } from '../../errors.js';
import { SecretMask } from '../../secrets/index.js';
import { settingVariable } from '../../settings/types.js';

/** Connection-level error codes worth another attempt (for reads and idempotent writes only). */
const RETRYABLE_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

const TLS_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

/**
 * Network codes of a connection that could not be made at all: nothing accepts connections at
 * the dashboard's address, or the address does not resolve or route.
 *
 * Such a failure is marked `details.unreachable` (isDashboardUnreachable in errors.ts), where it is
 * born: apply stops sending on one (after the transport's own retries of that call).
 *
 * Threshold: one call that failed this way stops the sending. The transport has already
 * retried it (reads and idempotent writes, with back-off), so it is no blip; and it is no reply
 * of a live dashboard: every later call would fail the same way, each only after its own
 * retries and its wait for the rate limiter (15 calls took minutes). What does not count:
 * - any reply, however bad (HTTP errors, a per-site error from a child site): the dashboard is
 *   there, and other sites may well work;
 * - a connection dropped after it was made (reset, socket closed): a proxy does that to one long
 *   call of a live dashboard (the re-read then often finds it took effect); a dashboard that
 *   died refuses the next call, and that one stops the run;
 * - a request timeout: at this layer a slow reply cannot be told from a connection never made
 *   (ETIMEDOUT below is the system's own connect timeout: a connection never made).
 */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EADDRNOTAVAIL',
  'ETIMEDOUT',
]);

/** The system or undici code of a network error, looking through `cause` chains. */
export function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_ABORTED') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Bytes the socket had received when undici gave up on it (its SocketError says), if known. */
function bytesRead(error: unknown): number | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const socket = (current as { socket?: { bytesRead?: unknown } }).socket;
    if (typeof socket?.bytesRead === 'number') return socket.bytesRead;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A body that is not JSON, described without quoting it (it may echo a credential): `an HTML
 * page (text/html)`, or its media type. Undefined when it claims to be JSON, or names no type and
 * does not look like HTML: then it is JSON gone wrong (truncated), not another kind of reply.
 */
export function describeNotJson(
  contentType: string | string[] | undefined,
  text: string,
): string | undefined {
  const raw = (Array.isArray(contentType) ? contentType[0] : contentType) ?? '';
  const media = raw.split(';')[0]?.trim().toLowerCase() ?? '';
  const type = /^[a-z0-9!#$&^_.+-]{1,40}\/[a-z0-9!#$&^_.+-]{1,60}$/.test(media) ? media : '';
  if (type === 'application/json' || type.endsWith('+json')) return undefined;
  if (type.includes('html') || text.trimStart().startsWith('<')) {
    return type ? `an HTML page (${type})` : 'an HTML page';
  }
  return type || undefined;
}

/** The hint for a reply that is not JSON: most often the dashboard URL reaches some other web server. */
export function notJsonHint(status: number, url: string, product: string): string {
  // nginx and Apache answer a plain HTTP request on a TLS port with their own 400 page.
  const tls = status === 400 && url.startsWith('http:') ? '; if that port speaks TLS, use https://' : '';
  return `Is this the dashboard? Check ${settingVariable('dashboardUrl', product)} (${url})${tls}.`;
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** undici's own timers (connect, headers, idle body) fired. */
export function isTimeoutCode(code: string | undefined): boolean {
  return code !== undefined && TIMEOUT_CODES.has(code);
}

export function isRetryableNetworkCode(code: string | undefined): boolean {
  return code !== undefined && RETRYABLE_CODES.has(code);
}

/** A failed connection as an SvcError that names the code and says what to check. */
export function connectionFailure(
  error: unknown,
  method: string,
  path: string,
  origin: string,
  product: string,
): SvcError {
  const url = settingVariable('dashboardUrl', product);
  const code = networkCode(error) ?? 'UNKNOWN';
  const details = {
    method,
    path,
    networkCode: code,
    ...(UNREACHABLE_CODES.has(code) ? { unreachable: true } : {}),
  };
  if (TLS_CODES.has(code)) {
    return new SvcError('TLS_ERROR', `${method} ${path}: certificate check failed (${code}) for ${origin}`, {
      hint: `Install a certificate the system trusts; for a local self-signed certificate only, set skipSslVerify (${settingVariable('skipSslVerify', product)}=true).`,
      details,
      cause: error,
    });
  }
  const hints: Record<string, string> = {
    ECONNREFUSED: `Nothing accepts connections at ${origin}: check ${url} and that the dashboard is running.`,
    ENOTFOUND: `The host of ${origin} does not resolve: check ${url}.`,
    ETIMEDOUT: `${origin} did not answer the connection: check the network, firewall or VPN.`,
    ECONNRESET: 'The connection was reset while talking to the dashboard; a proxy or the server dropped it.',
    // The TLS handshake got a reply that is not TLS: the server speaks plain HTTP on that port.
    ERR_SSL_WRONG_VERSION_NUMBER: `${origin} does not speak TLS on that port: check the scheme of ${url} (http:// or https://).`,
    UND_ERR_SOCKET: 'The dashboard closed the connection before the response was complete.',
  };
  // The reverse of ERR_SSL_WRONG_VERSION_NUMBER: a TLS server hangs up on a plain HTTP request
  // without a byte of reply.
  const tlsPort = code === 'UND_ERR_SOCKET' && origin.startsWith('http:') && bytesRead(error) === 0;
  return new SvcError('CONNECTION_FAILED', `${method} ${path}: connection failed (${code})`, {
    hint: tlsPort
      ? `${origin} closed the connection without answering: if that port speaks TLS, use https:// in ${url}.`
      : (hints[code] ?? `Check ${url}, the network and the dashboard server.`),
    details,
    cause: error,
  });
}

export function timeoutFailure(method: string, path: string, ms: number, product: string): SvcError {
  return new SvcError('TIMEOUT', `${method} ${path}: no complete response within ${ms} ms (ETIMEDOUT)`, {
    hint: `Raise requestTimeout (${settingVariable('requestTimeout', product)}) or check the dashboard load.`,
    details: { method, path, timeoutMs: ms },
  });
}

/** Removes every configured secret, in every spelling SecretMask knows, from text that came from outside. */
export function redact(text: string, secrets: readonly string[]): string {
  return new SecretMask(secrets).maskEcho(text);
}
