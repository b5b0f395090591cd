/**
 * Downloads a feed with undici into a file, streamed (the body never sits in memory). The API
 * key travels only in the Authorization header: no message, error or detail names it, and the
 * URL is shown through publicUrl. HTTPS is required except on loopback (a local mirror, the
 * sandbox).
 */
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { type Dispatcher, request } from 'undici';
import { SvcError } from '../errors.js';
import { publicUrl } from '../public-url.js';

export interface DownloadOptions {
  url: string;
  apiKey: string;
  /** The file the body is written to (created or replaced). */
  to: string;
  signal?: AbortSignal | undefined;
  dispatcher?: Dispatcher | undefined;
  /** Milliseconds to the response headers, and between body chunks. */
  timeoutMs?: number;
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\./.test(hostname);
}

export function checkFeedUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SvcError('CONFIG_INVALID', `the feed address ${publicUrl(url)} is not a URL`);
  }
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && isLoopback(parsed.hostname)))
    throw new SvcError('CONFIG_INVALID', `the feed address ${publicUrl(url)} must use https`, {
      hint: 'plain http is accepted on loopback only (a local mirror)',
    });
  return parsed;
}

export async function downloadFeed(options: DownloadOptions): Promise<{ bytes: number }> {
  const shown = publicUrl(options.url);
  checkFeedUrl(options.url);
  const timeout = options.timeoutMs ?? 120_000;
  let response: Dispatcher.ResponseData;
  try {
    response = await request(options.url, {
      method: 'GET',
      headers: { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' },
      headersTimeout: timeout,
      bodyTimeout: timeout,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    });
  } catch (error) {
    if (options.signal?.aborted) throw new SvcError('INTERRUPTED', `downloading ${shown} was interrupted`);
    const code = (error as { code?: unknown }).code;
    throw new SvcError(
      'CONNECTION_FAILED',
      `cannot download the feed ${shown} (${String(code ?? 'failed')})`,
    );
  }
  const status = response.statusCode;
  if (status !== 200) {
    await response.body.dump().catch(() => undefined);
    if (status === 401 || status === 403)
      throw new SvcError('AUTH_FAILED', `the feed ${shown} refused the API key (HTTP ${status})`, {
        hint: 'set SVC_FEED_API_KEY (or feedApiKey in the settings file) to a Wordfence Intelligence API key',
      });
    if (status === 429)
      throw new SvcError('RATE_LIMITED', `the feed ${shown} asks to wait (HTTP 429)`, {
        hint: 'Wordfence allows about one download per 30 minutes: raise security.refresh_after',
      });
    throw new SvcError('HTTP_ERROR', `downloading the feed ${shown} failed (HTTP ${status})`);
  }
  let bytes = 0;
  response.body.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  try {
    await pipeline(response.body, createWriteStream(options.to, { mode: 0o600 }));
  } catch (error) {
    if (options.signal?.aborted) throw new SvcError('INTERRUPTED', `downloading ${shown} was interrupted`);
    const code = (error as { code?: unknown }).code;
    throw new SvcError(
      'FEED_INVALID',
      `${shown}: the download broke off after ${bytes} bytes (${String(code ?? 'failed')}); the feed was not used`,
    );
  }
  return { bytes };
}
