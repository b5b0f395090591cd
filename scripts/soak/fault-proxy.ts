/**
 * A seeded fault proxy: an HTTP server that forwards every request to a target dashboard (the
 * sandbox) and, on a fraction of them, answers with a fault a flaky network or proxy produces
 * instead: a 5xx, a 429, a connection reset, a 2xx body cut short (declared whole, or declared
 * at its cut length), a 2xx body of garbage or an HTML page, or a slow answer. It sits outside
 * the sandbox on purpose: the client sees what a real network in front of a real dashboard does.
 * Paths below `/__sandbox/` (the sandbox's controls) pass untouched.
 */
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createRandom, type Random } from '../../src/sandbox/random.js';

export type ProxyFault =
  | 'status-500'
  | 'status-502'
  | 'status-503'
  | 'rate-limit'
  | 'reset'
  | 'truncated'
  | 'cut-off'
  | 'garbage'
  | 'html'
  | 'slow';

export const PROXY_FAULTS: readonly ProxyFault[] = [
  'status-500',
  'status-502',
  'status-503',
  'rate-limit',
  'reset',
  'truncated',
  'cut-off',
  'garbage',
  'html',
  'slow',
];

export interface FaultProxy {
  url: string;
  /** Starts a new seeded series: the same seed and request order give the same faults. */
  reseed(seed: number, rate: number): void;
  /** Requests seen since the proxy started (control paths included). */
  requests(): number;
  /** Faults injected since the last reseed, by kind. */
  injected(): Partial<Record<ProxyFault, number>>;
  close(): Promise<void>;
}

export interface FaultProxyOptions {
  /** Delay of a `slow` fault (default 150 ms). */
  slowMs?: number;
  /**
   * Rewrites the body of every forwarded answer (a hostile or inconsistent dashboard); the
   * Content-Length is set to the rewritten body's.
   */
  rewrite?: (path: string, body: Buffer) => Buffer;
}

export async function startFaultProxy(target: string, options: FaultProxyOptions = {}): Promise<FaultProxy> {
  const upstream = new URL(target);
  const slowMs = options.slowMs ?? 150;
  let random: Random = createRandom(1);
  let rate = 0;
  let counts: Partial<Record<ProxyFault, number>> = {};
  let seen = 0;
  const sockets = new Set<Socket>();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen++;
      const path = req.url ?? '/';
      const fault =
        path.startsWith('/__sandbox/') || random.next() >= rate ? undefined : random.pick(PROXY_FAULTS);
      if (fault) counts[fault] = (counts[fault] ?? 0) + 1;
      void handle(req, res, Buffer.concat(chunks), fault);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    body: Buffer,
    fault: ProxyFault | undefined,
  ): Promise<void> {
    switch (fault) {
      case 'status-500':
      case 'status-502':
      case 'status-503':
        return send(res, Number(fault.slice(-3)), 'text/html', '<html><body>upstream failed</body></html>');
      case 'rate-limit':
        return send(res, 429, 'application/json', '{"code":"rate_limited","message":"slow down"}', {
          'retry-after': String(random.int(0, 1)),
        });
      case 'reset':
        req.socket.destroy();
        return;
      case 'garbage':
        return send(res, 200, 'application/json', `\u0000\u00ff${random.next().toString(36)}<<garbage`);
      case 'html':
        return send(res, 200, 'text/html', '<html><body>Please wait…</body></html>');
      default:
        break;
    }
    if (fault === 'slow') await new Promise((resolve) => setTimeout(resolve, slowMs));
    let answer: { status: number; headers: http.IncomingHttpHeaders; body: Buffer };
    try {
      answer = await forward(req, body);
    } catch {
      req.socket.destroy();
      return;
    }
    if (fault === 'truncated' || fault === 'cut-off') {
      const cut = answer.body.subarray(0, Math.max(1, Math.floor(answer.body.length * random.next())));
      if (fault === 'truncated') return send(res, answer.status, 'application/json', cut);
      // Declares the whole length, sends part of it, then drops the connection.
      res.writeHead(answer.status, {
        'content-type': 'application/json',
        'content-length': String(answer.body.length),
      });
      res.write(cut, () => req.socket.destroy());
      return;
    }
    if (options.rewrite) answer = { ...answer, body: options.rewrite(req.url ?? '/', answer.body) };
    const headers = { ...answer.headers };
    delete headers['transfer-encoding'];
    delete headers.connection;
    headers['content-length'] = String(answer.body.length);
    res.writeHead(answer.status, headers);
    res.end(answer.body);
  }

  function forward(
    req: http.IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const headers = { ...req.headers, host: upstream.host };
      const out = http.request(
        {
          agent,
          protocol: upstream.protocol,
          hostname: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers,
        },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () =>
            resolve({
              status: answer.statusCode ?? 502,
              headers: answer.headers,
              body: Buffer.concat(parts),
            }),
          );
          answer.on('error', reject);
        },
      );
      out.on('error', reject);
      out.end(body);
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    reseed(seed, faultRate) {
      random = createRandom(seed);
      rate = faultRate;
      counts = {};
    },
    requests: () => seen,
    injected: () => ({ ...counts }),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}

function send(
  res: http.ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { 'content-type': type, 'content-length': String(bytes.length), ...headers });
  res.end(bytes);
}
