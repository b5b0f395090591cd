import { type ChildProcess, spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTransport } from '../../src/dashboard/transport/http.js';
import { svcError as failure } from '../helpers/errors.js';

/**
 * A listener that cannot accept for its first `blockMs`: its thread is blocked, and once the two
 * connections its backlog holds are taken, the kernel drops further attempts until the client retries
 * (about a second later). A request handed to undici meanwhile waits for its socket; it prints
 * `DATA n` for every byte that reaches it.
 */
const SLOW_LISTENER = `
const net = require('node:net');
const server = net.createServer((socket) => socket.on('data', (d) => process.stdout.write('DATA ' + d.length + '\\n')));
server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
  process.stdout.write('PORT ' + server.address().port + '\\n');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(process.argv[1]));
});
`;

let listener: ChildProcess | undefined;
const fillers: Socket[] = [];
afterEach(() => {
  for (const socket of fillers.splice(0)) socket.destroy();
  if (listener?.pid && listener.exitCode === null) process.kill(listener.pid, 'SIGKILL');
});

async function slowListener(blockMs: number): Promise<{ port: number; received: () => string }> {
  const child = spawn(process.execPath, ['-e', SLOW_LISTENER, String(blockMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  listener = child;
  let out = '';
  child.stdout?.setEncoding('utf8');
  const port = await new Promise<number>((resolve) => {
    child.stdout?.on('data', (chunk: string) => {
      out += chunk;
      const match = /PORT (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
  });
  return {
    port,
    received: () =>
      out
        .split('\n')
        .filter((line) => line.startsWith('DATA'))
        .join(' '),
  };
}

/**
 * No request leaves once the start signal aborted (the CLI's SIGINT/SIGTERM handler), also one
 * handed to undici before it whose socket only comes free after it: the gate is asked again
 * where undici puts the request on the socket.
 */
describe('the start gate at the socket', () => {
  it('a write handed over before the abort, whose socket connects after it, is never sent', async () => {
    const { port, received } = await slowListener(1500);
    for (let i = 0; i < 2; i++) {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => {});
      fillers.push(socket);
      await new Promise((resolve) => socket.once('connect', resolve));
    }
    const stop = new AbortController();
    const transport = createTransport({
      baseUrl: `http://127.0.0.1:${port}`,
      timeoutMs: 8000,
      maxResponseSize: 10_000,
      maxSessionData: 0,
      rateLimit: 0,
      maxAttempts: 1,
      retryBaseDelay: 1,
      retryMaxDelay: 5,
      concurrency: 2,
      skipSslVerify: false,
      startSignal: stop.signal,
    });
    try {
      const sending = failure(
        transport.send({ method: 'POST', path: '/write', body: { a: 1 }, retry: false }),
      );
      // The connection attempt waits for the kernel's retry (about 1 s): the abort comes first.
      await new Promise((resolve) => setTimeout(resolve, 200));
      stop.abort();
      const error = await sending;
      expect(error).toMatchObject({ code: 'INTERRUPTED', details: { sent: false } });
      // Give bytes written at the connection time to arrive before looking.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(received()).toBe('');
    } finally {
      await transport.close();
    }
  }, 15_000);
});
