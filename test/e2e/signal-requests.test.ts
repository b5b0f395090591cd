import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateFleet, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { REPO, sandboxEnv, tempDir } from './helpers.js';

const MAIN = join(REPO, 'src/cli/main.ts');
const TSX = import.meta.resolve('tsx');

/** A loopback proxy in front of the sandbox that notes when each request arrives. */
async function arrivalsProxy(
  upstream: string,
): Promise<{ url: string; arrivals: number[]; close(): Promise<void> }> {
  const target = new URL(upstream);
  const agent = new http.Agent({ keepAlive: true });
  const arrivals: number[] = [];
  const server = http.createServer((req, res) => {
    arrivals.push(performance.now());
    const forward = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    close: () => {
      agent.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * SIGINT into a real `plan` process in the middle of reading a large fleet, through a proxy
 * that counts arrivals. When the handler runs, the CLI says how many requests had left (the
 * client's count of requests undici put on a socket, final from then on: the start gate is
 * asked where each request meets its socket). No more than those may ever reach the proxy:
 * one more would be a request started after the handler. Arrivals after the signal are
 * reported, not judged by time: in-flight requests legitimately arrive late on a loaded machine.
 */
describe('requests after SIGINT', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({
      fleet: generateFleet({ sites: 5000, pendingPerSite: 6, ignoredPerSite: 3, seed: 6 }),
      profile: 'compat-6.1',
    });
  });
  afterAll(() => sandbox.close());

  it('no request starts once the handler ran: arrivals never exceed what it counted as sent', async () => {
    const proxy = await arrivalsProxy(sandbox.url);
    try {
      const cwd = tempDir('svc-gitops-signal-');
      writeFileSync(
        join(cwd, 'svc-gitops.yaml'),
        'version: 1\nupdates:\n  - name: routine\n    sites: [all]\n    kinds: [plugins]\n    max: minor\n',
      );
      const env = { ...sandboxEnv(sandbox, tempDir()), SVC_URL: proxy.url, SVC_RATE_LIMIT: '0' };
      const child = spawn(process.execPath, ['--import', TSX, MAIN, 'plan'], {
        cwd,
        env: { ...process.env, ...env, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        stderr += chunk;
      });
      child.stdout.resume();
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      // Mid-read: some pages in, most of the read still to come.
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the read never started: ${stderr}`)), 60_000);
        const poll = setInterval(() => {
          if (proxy.arrivals.length >= 30) {
            clearInterval(poll);
            clearTimeout(timer);
            resolve();
          }
        }, 1);
      });
      const signalledAt = performance.now();
      child.kill('SIGINT');
      const code = await Promise.race([
        exited,
        new Promise((resolve) => setTimeout(resolve, 30_000, 'hung')),
      ]);
      if (code === 'hung') child.kill('SIGKILL');
      // Bytes the process wrote just before it exited are through the proxy by now.
      await new Promise((resolve) => setTimeout(resolve, 300));

      expect(code, stderr).toBe(130);
      const said =
        /svc-gitops: stopping: no new request starts; waiting for (\d+) in flight \((\d+) sent\)/.exec(
          stderr,
        );
      expect(said, stderr).not.toBeNull();
      const sent = Number(said?.[2]);
      const late = proxy.arrivals.filter((at) => at > signalledAt).length;
      expect(
        { arrivals: Math.min(proxy.arrivals.length, sent), sent },
        `${proxy.arrivals.length} arrivals (${late} after the signal), ${sent} sent when the handler ran`,
      ).toEqual({ arrivals: proxy.arrivals.length, sent });
      expect(proxy.arrivals.length).toBeLessThan(400);
    } finally {
      await proxy.close();
    }
  }, 90_000);
});
