/**
 * The connection settings as the program sees them once loaded. The shape is described once, in
 * `schemas/settings.schema.json`; `SETTING_ENV` below lists every key of this interface (the
 * compiler checks that) and a test checks it against the schema's properties, so the three
 * cannot drift apart.
 */
export interface Settings {
  /** Base URL without trailing slash; '' when none is configured. */
  dashboardUrl: string;
  username?: string;
  applicationPassword?: string;
  token?: string;
  allowHttp: boolean;
  skipSslVerify: boolean;
  safeMode: boolean;
  requireUserConfirmation: boolean;
  /** plan: names the dashboard does not know are errors, not warnings. */
  strict: boolean;
  /** plan, comment and drift: exit 4 when the plan lists sites vulnerable with no fix. */
  failOnVulnerable: boolean;
  /** Calls per minute, 0 = unlimited; unset = adaptive pacing only. */
  rateLimit?: number;
  /** Milliseconds per request attempt. */
  requestTimeout: number;
  maxResponseSize: number;
  /** Cumulative response bytes; unset = no budget. */
  maxSessionData?: number;
  /** Total attempts for reads and idempotent writes (1 = no retry). */
  maxRetries: number;
  retryBaseDelay: number;
  retryMaxDelay: number;
  concurrency: number;
  /** Unset: discovered from the dashboard (src/dashboard/namespace.ts). */
  namespace?: string;
  planLifetimeMinutes: number;
  jobPollInterval: number;
  jobTimeout: number;
  /** Tool server: comma-separated names; '' = every tool. */
  allowedTools: string;
  /** Tool server: comma-separated names hidden from the list and refused. */
  blockedTools: string;
  /** Tool server over HTTP: the bearer token every request must carry. */
  httpToken?: string;
  /** Tool server: `vendor` behaves as the dashboard vendor's own tool server where ours differs by choice. */
  compatibility: 'svc' | 'vendor';
  /** Tool server: `compact` cuts tool descriptions short. */
  schemaVerbosity: 'standard' | 'compact';
  /** Tool server: `pretty` indents the JSON of tool results. */
  responseFormat: 'compact' | 'pretty';
  /** false: one attempt per request whatever maxRetries says. */
  retryEnabled: boolean;
  /** The vulnerability feed's API key (Wordfence Intelligence v3), for `security.feed`. */
  feedApiKey?: string;
  /** The apply history file (JSON Lines); unset: history.jsonl in the state directory. */
  historyFile?: string;
  /** Where notifications are posted (src/notify); a secret. Unset: none are sent. */
  webhookUrl?: string;
  /** The notification body: svc-gitops' own JSON or a Slack incoming-webhook body. */
  webhookFormat?: 'json' | 'slack';
}

export type SettingKey = keyof Settings;

/** The environment variable of every setting (empty variable = unset). */
export const SETTING_ENV: Readonly<Record<SettingKey, string>> = {
  dashboardUrl: 'SVC_URL',
  username: 'SVC_USER',
  applicationPassword: 'SVC_APP_PASSWORD',
  token: 'SVC_TOKEN',
  allowHttp: 'SVC_ALLOW_HTTP',
  skipSslVerify: 'SVC_SKIP_SSL_VERIFY',
  safeMode: 'SVC_SAFE_MODE',
  requireUserConfirmation: 'SVC_REQUIRE_USER_CONFIRMATION',
  strict: 'SVC_STRICT',
  failOnVulnerable: 'SVC_FAIL_ON_VULNERABLE',
  rateLimit: 'SVC_RATE_LIMIT',
  requestTimeout: 'SVC_REQUEST_TIMEOUT',
  maxResponseSize: 'SVC_MAX_RESPONSE_SIZE',
  maxSessionData: 'SVC_MAX_SESSION_DATA',
  maxRetries: 'SVC_RETRY_MAX_RETRIES',
  retryBaseDelay: 'SVC_RETRY_BASE_DELAY',
  retryMaxDelay: 'SVC_RETRY_MAX_DELAY',
  concurrency: 'SVC_CONCURRENCY',
  namespace: 'SVC_NAMESPACE',
  planLifetimeMinutes: 'SVC_PLAN_LIFETIME_MINUTES',
  jobPollInterval: 'SVC_JOB_POLL_INTERVAL',
  jobTimeout: 'SVC_JOB_TIMEOUT',
  allowedTools: 'SVC_ALLOWED_TOOLS',
  blockedTools: 'SVC_BLOCKED_TOOLS',
  httpToken: 'SVC_HTTP_TOKEN',
  compatibility: 'SVC_COMPATIBILITY',
  schemaVerbosity: 'SVC_SCHEMA_VERBOSITY',
  responseFormat: 'SVC_RESPONSE_FORMAT',
  retryEnabled: 'SVC_RETRY_ENABLED',
  feedApiKey: 'SVC_FEED_API_KEY',
  historyFile: 'SVC_HISTORY_FILE',
  webhookUrl: 'SVC_WEBHOOK_URL',
  webhookFormat: 'SVC_WEBHOOK_FORMAT',
};

/** The product name in variables (SVC_URL) and file names (~/.config/svc-mcp/) unless told otherwise. */
export const DEFAULT_PRODUCT = 'svc';

/**
 * The variable of a setting under another product name (`--namespace acme` reads ACME_URL):
 * the tool server can stand in for a vendor's own, whose variables carry its name.
 */
export function settingVariable(key: SettingKey, product = DEFAULT_PRODUCT): string {
  return productVariable(SETTING_ENV[key].slice('SVC_'.length), product);
}

/** A variable of the product that is no setting: `DASHBOARD` → SVC_DASHBOARD (ACME_DASHBOARD). */
export function productVariable(suffix: string, product = DEFAULT_PRODUCT): string {
  return `${product.toUpperCase().replace(/-/g, '_')}_${suffix}`;
}

/** Settings that hold a credential: never printed, logged or put into an error. */
export const SECRET_KEYS: readonly SettingKey[] = [
  'applicationPassword',
  'token',
  'httpToken',
  'feedApiKey',
  'webhookUrl',
];
