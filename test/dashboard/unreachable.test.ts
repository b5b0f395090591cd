import { afterEach, describe, expect, it } from 'vitest';
import { connectionFailure } from '../../src/dashboard/transport/failures.js';
import { createTransport } from '../../src/dashboard/transport/http.js';
import { isDashboardUnreachable } from '../../src/errors.js';
import { svcError as failure } from '../helpers/errors.js';
import { json, startServer, type TestServer } from './helpers/server.js';

/**
 * "The dashboard cannot be reached" is decided where the failure is born, in the transport's
 * failure classification: a connection never made is marked, a reply or a dropped connection
 * is not. Apply stops sending on a marked failure (test/apply/unreachable.test.ts).
 */
let server: TestServer | undefined;
afterEach(() => server?.close());

const transportFor = (url: string) =>
  createTransport({
    baseUrl: url,
    timeoutMs: 1000,
    maxResponseSize: 10_000,
    maxSessionData: 1_000_000,
    rateLimit: 0,
    maxAttempts: 1,
    retryBaseDelay: 1,
    retryMaxDelay: 5,
    concurrency: 1,
    skipSslVerify: false,
  });

describe('unreachable, as the transport classifies it', () => {
  it('a refused connection is unreachable; a reply or a connection dropped after it was made is not', async () => {
    server = await startServer((req, res) => {
      if (req.url === '/drop') req.socket.destroy();
      else json(res, 500, {});
    });
    const live = transportFor(server.url);
    expect((await live.send({ method: 'GET', path: '/', retry: false })).status).toBe(500);
    const dropped = await failure(live.send({ method: 'GET', path: '/drop', retry: false }));
    expect(dropped.code).toBe('CONNECTION_FAILED');
    expect(isDashboardUnreachable(dropped)).toBe(false);
    await live.close();

    const url = server.url;
    await server.close();
    server = undefined;
    const gone = transportFor(url);
    const refused = await failure(gone.send({ method: 'GET', path: '/', retry: true }));
    expect(refused.code).toBe('CONNECTION_FAILED');
    expect(isDashboardUnreachable(refused)).toBe(true);
    await gone.close();
  });

  it('marks connections never made, not connections dropped or timed out after they were made', () => {
    const marked = (code: string) =>
      isDashboardUnreachable(connectionFailure({ code }, 'POST', '/x', 'https://dash.test', 'svc'));
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'])
      expect(marked(code), code).toBe(true);
    for (const code of ['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'UND_ERR_HEADERS_TIMEOUT'])
      expect(marked(code), code).toBe(false);
    expect(isDashboardUnreachable(new Error('ECONNREFUSED'))).toBe(false);
  });
});
