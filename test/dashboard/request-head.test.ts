import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTransport, type Transport } from '../../src/dashboard/transport/http.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { svcError as failure } from '../helpers/errors.js';
import { basic, demoFleet } from '../sandbox/helpers.js';

const PATH = '/wp-json/wp-abilities/v1/abilities/svc/list-updates-v1/run';
const QUERY = 'input[page]=1&pad=';

/**
 * The transport counts a request's head as nginx does (the request line and each header line
 * with their CRLF within 8,192 bytes), and at each boundary it agrees with the sandbox, which
 * counts the same way (test/e2e/behind-nginx.test.ts checks both against nginx itself).
 */
describe('request heads at nginx’s 8 KiB boundary', () => {
  let sandbox: RunningSandbox;
  let transport: Transport;
  let auth: Record<string, string>;
  beforeAll(async () => {
    sandbox = await startSandbox({ fleet: demoFleet(), profile: 'spec' });
    transport = createTransport({
      baseUrl: sandbox.url,
      timeoutMs: 5000,
      maxResponseSize: 1_000_000,
      maxSessionData: 0,
      rateLimit: 0,
      maxAttempts: 1,
      retryBaseDelay: 1,
      retryMaxDelay: 5,
      concurrency: 2,
      skipSslVerify: false,
    });
    const { username, applicationPassword } = sandbox.credentials;
    auth = { authorization: basic(username, applicationPassword) };
  });
  afterAll(async () => {
    await transport.close();
    await sandbox.close();
  });

  /** A query making `GET PATH?QUERY… HTTP/1.1\r\n` exactly `bytes` long. */
  const queryOfLine = (bytes: number) =>
    QUERY + 'x'.repeat(bytes - `GET ${PATH}?${QUERY} HTTP/1.1\r\n`.length);
  const requestsSeen = async () =>
    ((await (await fetch(`${sandbox.url}/__sandbox/stats`)).json()) as { requests_total: number })
      .requests_total;

  it('sends a request line of 8,192 bytes with its CRLF; refuses 8,193 before it leaves', async () => {
    const served = await transport.send({
      method: 'GET',
      path: PATH,
      query: queryOfLine(8192),
      headers: auth,
      retry: false,
    });
    expect(served.status).toBe(200);
    const before = await requestsSeen();
    const error = await failure(
      transport.send({ method: 'GET', path: PATH, query: queryOfLine(8193), headers: auth, retry: false }),
    );
    expect(error).toMatchObject({ code: 'INTERNAL', details: { requestLineBytes: 8193 } });
    expect(error.message).toMatch(/request line would be 8193 bytes with its CRLF, over the 8192/);
    expect(await requestsSeen()).toBe(before);
  });

  it('sends a header line of 8,192 bytes with its CRLF; refuses 8,193 naming the header only', async () => {
    const value = (bytes: number) => 'v'.repeat(bytes - 'x-pad: \r\n'.length);
    const served = await transport.send({
      method: 'GET',
      path: PATH,
      query: QUERY,
      headers: { ...auth, 'x-pad': value(8192) },
      retry: false,
    });
    expect(served.status).toBe(200);
    const before = await requestsSeen();
    const error = await failure(
      transport.send({
        method: 'GET',
        path: PATH,
        query: QUERY,
        headers: { ...auth, 'x-pad': value(8193) },
        retry: false,
      }),
    );
    expect(error.code).toBe('INTERNAL');
    expect(error.message).toContain('the x-pad header line would be over the 8192 bytes');
    expect(error.message).not.toContain('vvvv');
    expect(await requestsSeen()).toBe(before);
  });

  it('refuses a head that needs a fifth 8 KiB buffer, as nginx and the sandbox do', async () => {
    const line = (name: string) => 'v'.repeat(8000 - `${name}: \r\n`.length);
    const four = { 'x-a': line('x-a'), 'x-b': line('x-b'), 'x-c': line('x-c'), 'x-d': line('x-d') };
    const served = await transport.send({
      method: 'GET',
      path: PATH,
      query: QUERY,
      headers: { ...auth, ...four },
      retry: false,
    });
    expect(served.status).toBe(200);
    const error = await failure(
      transport.send({
        method: 'GET',
        path: PATH,
        query: QUERY,
        headers: { ...auth, ...four, 'x-e': line('x-e') },
        retry: false,
      }),
    );
    expect(error.message).toContain("the request's headers would need more than 4 buffers of 8192 bytes");
  });
});
