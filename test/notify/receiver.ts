import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook receiver on loopback: it records every POST and answers the status `answer` gives
 * for the delivery's number (1-based).
 */
export async function startReceiver(answer: (n: number) => number = () => 200): Promise<{
  url: string;
  deliveries: Delivery[];
  close(): Promise<void>;
}> {
  const deliveries: Delivery[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      deliveries.push({ path: req.url ?? '', headers: req.headers, body });
      res.statusCode = answer(deliveries.length);
      res.end('{"ok":false}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    deliveries,
    close: () => new Promise((done) => server.close(() => done())),
  };
}
