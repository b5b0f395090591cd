import type { Dispatcher } from 'undici';
import { SvcError } from '../../errors.js';
import { DEFAULT_PRODUCT } from '../../settings/types.js';
import { timeoutFailure } from './failures.js';
import type { DataBudget } from './limits.js';
import type { HttpRequest } from './messages.js';
import type { TransportConfig } from './transport-config.js';

/**
 * Reads the body as UTF-8, refusing it as soon as it grows past the size limit or the attempt
 * outlives the request timeout (a body that trickles in never trips the agent's idle timer).
 */
export async function readCapped(
  res: Dispatcher.ResponseData,
  config: TransportConfig,
  budget: DataBudget,
  req: HttpRequest,
  started: number,
): Promise<string> {
  const where = `${req.method} ${req.path}`;
  const limit = Math.max(config.maxResponseSize, req.fleetSizedLimit ?? 0);
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    discard(res.body);
    throw tooLarge(where, `response size ${declared} bytes exceeds the maximum of ${limit} bytes`, limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  // A body trickling in keeps the agent's idle timer quiet: this timer ends it when the attempt's
  // time is up, between chunks as well as at one.
  let timedOut = false;
  const timer = setTimeout(
    () => {
      timedOut = true;
      discard(res.body);
    },
    Math.max(0, config.timeoutMs - (performance.now() - started)),
  );
  try {
    for await (const chunk of res.body) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      if (size > limit) {
        discard(res.body);
        throw tooLarge(where, `response body exceeds the ${limit} bytes limit`, limit);
      }
      try {
        budget.add(buffer.length);
      } catch (error) {
        discard(res.body);
        throw error;
      }
      chunks.push(buffer);
    }
  } catch (error) {
    if (timedOut)
      throw timeoutFailure(req.method, req.path, config.timeoutMs, config.product ?? DEFAULT_PRODUCT);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  if (timedOut)
    throw timeoutFailure(req.method, req.path, config.timeoutMs, config.product ?? DEFAULT_PRODUCT);
  return chunks.length === 1
    ? (chunks[0] as Buffer).toString('utf8')
    : Buffer.concat(chunks, size).toString('utf8');
}

/** Drops a body we refuse; the abort it raises has nobody to tell, so it is swallowed here. */
export function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {});
  body.destroy();
}

function tooLarge(where: string, what: string, limit: number): SvcError {
  return new SvcError('RESPONSE_TOO_LARGE', `${where}: ${what}`, {
    hint: 'Raise maxResponseSize (SVC_MAX_RESPONSE_SIZE) if the dashboard is expected to send this much.',
    details: { limit },
  });
}
