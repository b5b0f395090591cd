/**
 * Posts one run's notification to the webhook. The URL is a secret (a Slack or Teams webhook
 * carries its token in the path): no message names more of it than its host, and the body is
 * masked against every configured secret before it leaves. A delivery that fails is retried with
 * backoff; one that never succeeds is a warning, never an error: notifying must not change a
 * run's outcome.
 */
import { type Dispatcher, request } from 'undici';
import { SecretMask } from '../secrets/index.js';
import { slackBody } from './summary.js';
import type { Notification, WebhookFormat } from './types.js';

export interface DeliveryOptions {
  url: string;
  format: WebhookFormat;
  /** Every configured credential: masked in the body (the dashboard's messages are quoted). */
  secrets: ReadonlyArray<string | undefined>;
  onWarning: (message: string) => void;
  /** The waits between attempts (tests: virtual time). */
  sleep: (ms: number) => Promise<void>;
  /** Attempts in all (default 4). */
  attempts?: number;
  /** Milliseconds per attempt, to the response headers and between body chunks (default 10 s). */
  timeoutMs?: number;
  dispatcher?: Dispatcher | undefined;
}

/** The waits before the 2nd, 3rd and 4th attempt. */
const BACKOFF_MS = [1_000, 4_000, 15_000];

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\./.test(hostname);
}

/** Delivers `notification`; true once a 2xx answered. Never throws. */
export async function deliver(notification: Notification, options: DeliveryOptions): Promise<boolean> {
  let target: URL;
  try {
    target = new URL(options.url);
  } catch {
    options.onWarning('notification not sent: the webhook URL (SVC_WEBHOOK_URL) is not a URL');
    return false;
  }
  const host = target.host;
  if (target.protocol !== 'https:' && !(target.protocol === 'http:' && isLoopback(target.hostname))) {
    options.onWarning(
      `notification not sent: the webhook URL for ${host} must use https (http on loopback only)`,
    );
    return false;
  }
  const mask = new SecretMask([...options.secrets, options.url]);
  const payload = options.format === 'slack' ? slackBody(notification) : notification;
  const body = mask.mask(JSON.stringify(payload));
  const attempts = Math.max(1, options.attempts ?? BACKOFF_MS.length + 1);
  let last = '';
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    if (attempt > 1) await options.sleep(BACKOFF_MS[Math.min(attempt - 2, BACKOFF_MS.length - 1)]!);
    const outcome = await postOnce(options.url, body, options);
    if (outcome.ok) return true;
    last = outcome.why;
    if (!outcome.retry) break;
  }
  options.onWarning(`notification to ${host} not delivered (${last}); the run goes on`);
  return false;
}

type Attempt = { ok: true } | { ok: false; retry: boolean; why: string };

/** One POST. The reason of a failure is a status or an error code: never a message, which may quote the URL. */
async function postOnce(url: string, body: string, options: DeliveryOptions): Promise<Attempt> {
  const timeout = options.timeoutMs ?? 10_000;
  try {
    const response = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'svc-gitops' },
      body,
      headersTimeout: timeout,
      bodyTimeout: timeout,
      signal: AbortSignal.timeout(timeout * 2),
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    });
    // The answer is not read beyond draining it: nothing a receiver says is shown.
    await response.body.dump();
    const status = response.statusCode;
    if (status >= 200 && status < 300) return { ok: true };
    return { ok: false, retry: status >= 500 || status === 429 || status === 408, why: `HTTP ${status}` };
  } catch (error) {
    const code = (error as { code?: unknown; name?: unknown }).code ?? (error as { name?: unknown }).name;
    return { ok: false, retry: true, why: typeof code === 'string' ? code : 'no answer' };
  }
}
