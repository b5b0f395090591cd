import { type Dispatcher, request } from 'undici';
import { SvcError } from '../../errors.js';
import { DEFAULT_PRODUCT } from '../../settings/types.js';
import { type Json, parseJson } from '../wire/json.js';
import { attemptDeadline } from './deadline.js';
import type { EchoMask } from './echoes.js';
import {
  connectionFailure,
  describeNotJson,
  isTimeoutCode,
  networkCode,
  notJsonHint,
  timeoutFailure,
} from './failures.js';
import { type DataBudget, interrupted } from './limits.js';
import type { HttpRequest, HttpResponse } from './messages.js';
import { readCapped } from './read-capped.js';
import type { TransportConfig } from './transport-config.js';

/** The headers of a request as sent, before undici adds Host, Connection and Content-Length. */
export function outgoingHeaders(req: HttpRequest): Record<string, string> {
  return {
    accept: 'application/json',
    'user-agent': 'svc-gitops',
    ...req.headers,
    ...(req.body === undefined ? {} : { 'content-type': 'application/json' }),
  };
}

/** One attempt of a request: send it, read the reply within the limits, parse it. */
export async function sendOnce(
  agent: Dispatcher,
  config: TransportConfig,
  budget: DataBudget,
  req: HttpRequest,
  { origin, shownUrl }: { origin: string; shownUrl: string },
  echoes: EchoMask,
): Promise<HttpResponse> {
  const started = performance.now();
  const where = `${req.method} ${req.path}`;
  let status: number | undefined;
  const deadline = attemptDeadline(config.timeoutMs, req.signal);
  try {
    const url = config.baseUrl + req.path + (req.query ? `?${req.query}` : '');
    const headers = outgoingHeaders(req);
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    // Timeouts: the agent's connect/headers/body timers cover silence; readCapped caps the total
    // time of a body that keeps trickling with one timer for the rest of the attempt's time.
    const res = await request(url, {
      method: req.method,
      headers,
      dispatcher: agent,
      ...(deadline.signal ? { signal: deadline.signal } : {}),
      ...(body === undefined ? {} : { body }),
    });
    status = res.statusCode;
    const text = await readCapped(res, config, budget, req, started);
    return {
      status: res.statusCode,
      headers: res.headers,
      ...parseReply(
        text,
        res.statusCode,
        res.headers['content-type'],
        where,
        shownUrl,
        echoes,
        config.product,
      ),
    };
  } catch (error) {
    if (deadline.expired && !req.signal?.aborted)
      throw timeoutFailure(req.method, req.path, config.timeoutMs, config.product ?? DEFAULT_PRODUCT);
    if (error instanceof SvcError) throw error;
    if (req.signal?.aborted) throw interrupted();
    if (isTimeoutCode(networkCode(error)))
      throw timeoutFailure(req.method, req.path, config.timeoutMs, config.product ?? DEFAULT_PRODUCT);
    throw connectionFailure(error, req.method, req.path, origin, config.product ?? DEFAULT_PRODUCT);
  } finally {
    deadline.clear();
    const event = { method: req.method, path: req.path, ms: performance.now() - started };
    config.onRequest?.(status === undefined ? event : { ...event, status });
  }
}

/**
 * The body as JSON (undefined when empty). A body that is not JSON is never quoted (it may echo a
 * credential): when it is of another kind (another web server's HTML page: a wrong port or path),
 * a 2xx reply fails naming its status and type, and a failed status comes back described in
 * `notJson`, still the caller's to judge (and to retry). Truncated JSON of a 2xx stays BAD_RESPONSE.
 */
function parseReply(
  text: string,
  status: number,
  contentType: string | string[] | undefined,
  where: string,
  shownUrl: string,
  echoes: EchoMask,
  product = DEFAULT_PRODUCT,
): Pick<HttpResponse, 'body' | 'notJson' | 'text'> {
  if (text.length === 0 || (text.length < 16 && text.trim() === '')) return { body: undefined };
  let parsed: Json;
  try {
    parsed = parseJson(text, where);
  } catch (error) {
    const what = describeNotJson(contentType, text);
    if (status < 200 || status >= 300) {
      return {
        body: undefined,
        notJson: what ? `the reply is ${what}, not JSON` : 'the reply is not valid JSON',
      };
    }
    // `unreadableBody`: the same request asked again may well answer whole (retrying.ts).
    if (what === undefined) {
      if (!(error instanceof SvcError)) throw error;
      const bad = error;
      throw new SvcError(bad.code, bad.message, {
        ...(bad.hint === undefined ? {} : { hint: bad.hint }),
        details: { ...bad.details, status, unreadableBody: true },
      });
    }
    throw new SvcError('BAD_RESPONSE', `${where}: HTTP ${status}, but the reply is ${what}, not JSON`, {
      hint: notJsonHint(status, shownUrl, product),
      details: { where, status, unreadableBody: true },
    });
  }
  const masked = echoes.mask(parsed, text);
  // A dropped `__proto__` key (parseJson) also makes the text say more than the body.
  const same = !masked.changed && text.indexOf('"__proto__"') === -1;
  return same ? { body: masked.body, text } : { body: masked.body };
}
