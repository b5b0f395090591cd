/**
 * A real nginx (Debian's `nginx-light`) in front of a sandbox, for the end-to-end test
 * (test/e2e/behind-nginx.test.ts) and `npm run bench:nginx`. It writes its own configuration into
 * a temporary prefix (listen on 127.0.0.1 on a free port, proxy to the sandbox, pid, logs and
 * temp paths of its own), runs nginx in the foreground (`daemon off`, master and one worker) as a
 * child of this process, and stops it by that PID. Request-size settings stay at nginx's
 * defaults (`client_header_buffer_size 1k`, `large_client_header_buffers 4 8k`,
 * `client_max_body_size 1m`): what is tested is the web server a dashboard sits behind.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export interface NginxFront {
  /** `http://127.0.0.1:PORT`, nginx's own address. */
  url: string;
  pid: number;
  /** nginx's access log (combined format), until stop() removes it. */
  accessLog: string;
  /** nginx's error log so far (for a failing test's message). */
  errors(): string;
  /** Stops nginx by its PID (SIGQUIT, then SIGKILL after `graceMs`) and removes its prefix. */
  stop(graceMs?: number): Promise<void>;
}

/** The nginx binary on PATH or in /usr/sbin, else undefined. */
export function nginxBinary(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  for (const dir of dirs) {
    const candidate = join(dir, 'nginx');
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function configText(prefix: string, port: number, upstream: URL): string {
  const path = (name: string) => join(prefix, name);
  return `daemon off;
worker_processes 1;
pid ${path('nginx.pid')};
error_log ${path('error.log')} info;
events { worker_connections 1024; }
http {
  access_log ${path('access.log')};
  client_body_temp_path ${path('body')};
  proxy_temp_path ${path('proxy')};
  fastcgi_temp_path ${path('fastcgi')};
  uwsgi_temp_path ${path('uwsgi')};
  scgi_temp_path ${path('scgi')};
  upstream sandbox {
    server ${upstream.host};
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://sandbox;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_read_timeout 300s;
    }
  }
}
`;
}

/** Resolves once something accepts connections on the port; rejects when nginx exits first. */
function listening(port: number, child: ChildProcess, errors: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    let done = false;
    const exited = (code: number | null) => {
      done = true;
      reject(new Error(`nginx exited (${code}) before listening: ${errors().slice(-2000)}`));
    };
    child.once('exit', exited);
    const attempt = (left: number) => {
      if (done) return;
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        done = true;
        child.off('exit', exited);
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (left === 0) {
          done = true;
          reject(new Error(`nginx did not listen on ${port}: ${errors().slice(-2000)}`));
        } else setTimeout(() => attempt(left - 1), 50);
      });
    };
    attempt(400);
  });
}

/** Starts nginx in front of `upstreamUrl` (the sandbox's `http://127.0.0.1:PORT`). */
export async function startNginx(upstreamUrl: string): Promise<NginxFront> {
  const binary = nginxBinary();
  if (!binary) throw new Error('nginx is not installed');
  const prefix = mkdtempSync(join(tmpdir(), 'svc-nginx-'));
  // nginx's worker runs as `nobody` when started by root: it must reach its temp paths.
  chmodSync(prefix, 0o755);
  const port = await freePort();
  const conf = join(prefix, 'nginx.conf');
  writeFileSync(conf, configText(prefix, port, new URL(upstreamUrl)));
  const errorLog = join(prefix, 'error.log');
  const errors = () => (existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : '');
  const child = spawn(binary, ['-p', `${prefix}/`, '-c', conf, '-e', errorLog], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const allErrors = () => `${stderr}${errors()}`;
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await listening(port, child, allErrors);
  } catch (error) {
    if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
    await exit;
    rmSync(prefix, { recursive: true, force: true });
    throw error;
  }
  const pid = child.pid as number;
  return {
    url: `http://127.0.0.1:${port}`,
    pid,
    accessLog: join(prefix, 'access.log'),
    errors: allErrors,
    async stop(graceMs = 5000) {
      if (child.exitCode === null && child.signalCode === null) {
        process.kill(pid, 'SIGQUIT');
        const timer = setTimeout(() => {
          if (child.exitCode === null && child.signalCode === null) process.kill(pid, 'SIGKILL');
        }, graceMs);
        await exit;
        clearTimeout(timer);
      }
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
