import { SvcError } from '../errors.js';
import { DEFAULT_PRODUCT, type Settings, settingVariable } from '../settings/types.js';
import { createTransport, type Transport } from './transport/http.js';
import type { PacingTimers } from './transport/limits.js';

/**
 * Everything a call needs to reach the dashboard: the transport, the credentials as ready-made
 * headers (kept here and nowhere else), the namespaced bases and the secrets to redact.
 */
export interface Connection {
  url: string;
  transport: Transport;
  /** The interface namespace: configured, or `svc` until discovered (adoptNamespace). */
  namespace: string;
  /** Whether the settings named the namespace; if not, the client discovers it on first contact. */
  namespaceConfigured: boolean;
  /** `/wp-json/<ns>/v2` */
  restBase: string;
  /** `/wp-json/wp-abilities/v1` */
  abilitiesBase: string;
  abilityAuth: { kind: 'basic' | 'bearer' | 'none'; headers: Record<string, string> };
  restAuth: { kind: 'bearer' | 'none'; headers: Record<string, string> };
  secrets: string[];
  /** The product whose variables hints name (settingVariable). */
  product: string;
  jobPollInterval: number;
  jobTimeout: number;
}

export interface ConnectionOptions {
  /** See TransportConfig.startSignal. */
  startSignal?: AbortSignal;
  onRequest?: (event: { method: string; path: string; status?: number; ms: number }) => void;
  random?: () => number;
  /** See TransportConfig.alsoMask. */
  alsoMask?: ReadonlyArray<string | undefined>;
  /** See TransportConfig.product. */
  product?: string;
  /** See TransportConfig.timers. */
  timers?: PacingTimers;
}

/** The namespace of the sandbox and of the interface spec, used when nothing else is known. */
export const DEFAULT_NAMESPACE = 'svc';

/**
 * The REST key as MainWP's bearer parser wants it: `<secret>==<key>` (the form its UI shows); it
 * adds the `cs_` / `ck_` prefixes itself, so a token written with them (`cs_…==ck_…`, the
 * form of the stored key pair) is sent without them.
 */
export function bearerForm(token: string): string {
  const match = /^cs_(.+)==ck_(.+)$/.exec(token.trim());
  return match ? `${match[1]}==${match[2]}` : token.trim();
}

/** Switches a connection whose namespace was not configured to the discovered one. */
export function adoptNamespace(conn: Connection, namespace: string): void {
  conn.namespace = namespace;
  conn.restBase = `/wp-json/${namespace}/v2`;
}

export function openConnection(settings: Settings, options: ConnectionOptions = {}): Connection {
  const product = options.product ?? DEFAULT_PRODUCT;
  if (!settings.dashboardUrl) {
    const variable = settingVariable('dashboardUrl', product);
    throw new SvcError('SETTINGS_INVALID', 'no dashboard URL is configured', {
      hint: `Set ${variable} (or dashboardUrl in settings.json), e.g. ${variable}=https://dashboard.example.com`,
    });
  }
  const url = new URL(settings.dashboardUrl);
  if (url.protocol === 'http:' && !settings.allowHttp) {
    throw new SvcError(
      'SETTINGS_INVALID',
      `dashboardUrl ${url.origin} uses HTTP which transmits credentials in plain text`,
      {
        hint: `Use https, or set allowHttp (${settingVariable('allowHttp', product)}=true) for a local test dashboard.`,
      },
    );
  }
  const baseUrl = settings.dashboardUrl.replace(/\/+$/, '');
  const secrets = [settings.applicationPassword, settings.token].filter((s): s is string => Boolean(s));
  const transport = createTransport({
    baseUrl,
    timeoutMs: settings.requestTimeout,
    maxResponseSize: settings.maxResponseSize,
    maxSessionData: settings.maxSessionData ?? 0,
    rateLimit: settings.rateLimit ?? 0,
    maxAttempts: settings.maxRetries,
    retryBaseDelay: settings.retryBaseDelay,
    retryMaxDelay: settings.retryMaxDelay,
    concurrency: settings.concurrency,
    skipSslVerify: settings.skipSslVerify,
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    ...(options.random ? { random: options.random } : {}),
    ...(options.startSignal ? { startSignal: options.startSignal } : {}),
    // Both configured credentials, sent or not (a token beside a login is not sent).
    alsoMask: [...secrets, ...(options.alsoMask ?? [])],
    product,
    ...(options.timers ? { timers: options.timers } : {}),
  });
  const token = settings.token ? bearerForm(settings.token) : undefined;
  if (token && token !== settings.token) secrets.push(token);
  const bearer = token ? { authorization: `Bearer ${token}` } : undefined;
  const basic =
    settings.username && settings.applicationPassword
      ? {
          authorization: `Basic ${Buffer.from(`${settings.username}:${settings.applicationPassword}`).toString('base64')}`,
        }
      : undefined;
  if (basic?.authorization) secrets.push(basic.authorization.slice('Basic '.length));
  return {
    url: baseUrl,
    transport,
    namespace: settings.namespace ?? DEFAULT_NAMESPACE,
    namespaceConfigured: settings.namespace !== undefined,
    restBase: `/wp-json/${settings.namespace ?? DEFAULT_NAMESPACE}/v2`,
    abilitiesBase: '/wp-json/wp-abilities/v1',
    abilityAuth: basic
      ? { kind: 'basic', headers: basic }
      : bearer
        ? { kind: 'bearer', headers: bearer }
        : { kind: 'none', headers: {} },
    restAuth: bearer ? { kind: 'bearer', headers: bearer } : { kind: 'none', headers: {} },
    secrets,
    product,
    jobPollInterval: settings.jobPollInterval,
    jobTimeout: settings.jobTimeout,
  };
}
