import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Settings } from '../../../src/settings/types.js';

export interface TestServer {
  url: string;
  requests: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }>;
  close(): Promise<void>;
}

/** A real loopback server on port 0 for transport and wire-shape tests. */
export async function startServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void | Promise<void>,
): Promise<TestServer> {
  const requests: TestServer['requests'] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      void handler(req, res, body);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export function json(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Settings for tests: fast retries, no rate limit, loopback http allowed. */
export function testSettings(url: string, overrides: Partial<Settings> = {}): Settings {
  return {
    dashboardUrl: url,
    username: 'admin',
    applicationPassword: 'abcd EFGH ijkl MNOP qrst UVWX',
    allowHttp: true,
    skipSslVerify: false,
    safeMode: true,
    requireUserConfirmation: true,
    strict: false,
    failOnVulnerable: false,
    rateLimit: 0,
    requestTimeout: 2000,
    maxResponseSize: 1_000_000,
    maxSessionData: 50_000_000,
    maxRetries: 3,
    retryBaseDelay: 1,
    retryMaxDelay: 5,
    concurrency: 4,
    allowedTools: '',
    blockedTools: '',
    namespace: 'svc',
    planLifetimeMinutes: 60,
    jobPollInterval: 0,
    jobTimeout: 60_000,
    compatibility: 'svc',
    schemaVerbosity: 'standard',
    responseFormat: 'compact',
    retryEnabled: true,
    ...overrides,
  };
}
