import * as fs from 'node:fs';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NginxFront, nginxBinary, startNginx } from '../../scripts/bench/nginx.js';
import { createDashboardClient } from '../../src/dashboard/index.js';
import { generateFleet, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { loadSettings } from '../../src/settings/index.js';
import { cli } from '../helpers/cli.js';
import { basic } from '../sandbox/helpers.js';
import { resetStats, sandboxEnv, sandboxStats, tempDir } from './helpers.js';

const NGINX = nginxBinary();
const TITLE = NGINX
  ? 'behind a real nginx (Debian nginx-light, default buffers)'
  : 'behind a real nginx: skipped, nginx is not installed (apt-get install nginx-light)';
if (!NGINX) console.warn(`test/e2e/behind-nginx.test.ts: ${TITLE}`);

const LIST = '/wp-json/wp-abilities/v1/abilities';
const IGNORED_RUN = '/wp-json/wp-abilities/v1/abilities/svc/list-ignored-updates-v1/run';

/**
 * The status code of one raw request written to `url`'s port. The socket stays open for writing
 * until the status line is in: a client that half-closes is one nginx stops proxying for (499).
 */
function rawStatus(url: string, head: string): Promise<number> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(head));
    let reply = '';
    const done = (status: number) => {
      socket.destroy();
      resolve(status);
    };
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(reply)?.[1];
      if (status) done(Number(status));
    });
    socket.on('error', reject);
    socket.on('close', () => done(0));
  });
}

/** `name: value\r\n` of exactly `bytes`. */
const headerLine = (name: string, bytes: number) => `${name}: ${'v'.repeat(bytes - name.length - 4)}\r\n`;
/** `GET LIST?pad=… HTTP/1.1\r\n` of exactly `bytes`. */
const requestLine = (bytes: number) =>
  `GET ${LIST}?pad=${'x'.repeat(bytes - `GET ${LIST}?pad= HTTP/1.1\r\n`.length)} HTTP/1.1\r\n`;

/**
 * The apply of a small fleet, and reads whose request lines sit at nginx's limit, through nginx
 * 1.22 at its default `large_client_header_buffers 4 8k`. nginx answers 414 to a request line of
 * 8,193 bytes with its CRLF and 400 to a head it cannot buffer; the sandbox (which answers 431
 * for the head) must give the same verdicts, and the client must send nothing either refuses.
 */
describe.skipIf(!NGINX)(TITLE, () => {
  let sandbox: RunningSandbox;
  let nginx: NginxFront;
  let auth: string;
  const fleet = generateFleet({ sites: 1500, pendingPerSite: 2, ignoredPerSite: 2, seed: 29 });

  beforeAll(async () => {
    sandbox = await startSandbox({ fleet, profile: 'compat-6.1' });
    nginx = await startNginx(sandbox.url);
    auth = `Authorization: ${basic(sandbox.credentials.username, sandbox.credentials.applicationPassword)}\r\n`;
  });
  afterAll(async () => {
    await nginx?.stop();
    await sandbox?.close();
  });

  it('the sandbox refuses exactly the heads nginx refuses', async () => {
    const head = (line: string, headers: string[]) =>
      `${line}Host: 127.0.0.1\r\nConnection: close\r\n${auth}${headers.join('')}\r\n`;
    const eight = (name: string) => headerLine(name, 8000);
    const cases: Array<[string, string]> = [
      ['request line 8192', head(requestLine(8192), [])],
      ['request line 8193', head(requestLine(8193), [])],
      ['header line 8192', head(requestLine(100), [headerLine('x-pad', 8192)])],
      ['header line 8193', head(requestLine(100), [headerLine('x-pad', 8193)])],
      [
        'four buffers',
        head(
          requestLine(100),
          ['a', 'b', 'c', 'd'].map((n) => eight(`x-${n}`)),
        ),
      ],
      [
        'five buffers',
        head(
          requestLine(100),
          ['a', 'b', 'c', 'd', 'e'].map((n) => eight(`x-${n}`)),
        ),
      ],
      [
        'line 8192, three header buffers',
        head(
          requestLine(8192),
          ['a', 'b', 'c'].map((n) => eight(`x-${n}`)),
        ),
      ],
      [
        'line 8192, four header buffers',
        head(
          requestLine(8192),
          ['a', 'b', 'c', 'd'].map((n) => eight(`x-${n}`)),
        ),
      ],
    ];
    const seen: string[] = [];
    const expected: string[] = [];
    for (const [name, raw] of cases) {
      const viaNginx = await rawStatus(nginx.url, raw);
      const direct = await rawStatus(sandbox.url, raw);
      seen.push(`${name}: nginx ${viaNginx}, sandbox ${direct}`);
      // nginx's "Request Header Or Cookie Too Large" is a 400; the sandbox says 431.
      expected.push(`${name}: nginx ${viaNginx}, sandbox ${viaNginx === 400 ? 431 : viaNginx}`);
    }
    expect(seen).toEqual(expected);
    expect(seen.slice(0, 4)).toEqual([
      'request line 8192: nginx 200, sandbox 200',
      'request line 8193: nginx 414, sandbox 414',
      'header line 8192: nginx 200, sandbox 200',
      'header line 8193: nginx 400, sandbox 431',
    ]);
  });

  it('reads sites whose ignored-listing query would make a line of 8,193 bytes with CRLF', async () => {
    // Site IDs whose whole query makes `GET …? HTTP/1.1` 8,191 bytes: 8,193 with its CRLF. A
    // client that counts without the CRLF sends it as one request, and nginx answers 414.
    // Each ID costs `&input[site_ids_or_domains][]=` (30 bytes) and its digits: b IDs of three
    // digits and c of four with 33b + 34c = the bytes the IDs must fill.
    const fill = 8191 - (`GET ${IGNORED_RUN}? HTTP/1.1`.length - 1);
    const b = Array.from({ length: 34 }, (_, n) => n).find((n) => (fill - 33 * n) % 34 === 0) ?? 0;
    const c = (fill - 33 * b) / 34;
    const ids = [
      ...Array.from({ length: b }, (_, n) => 100 + n),
      ...Array.from({ length: c }, (_, n) => 1000 + n),
    ];
    const line =
      `GET ${IGNORED_RUN}?${ids.map((id) => `input[site_ids_or_domains][]=${id}`).join('&')} HTTP/1.1`.length;
    expect(line).toBe(8191);
    const { settings } = loadSettings({
      env: { ...sandboxEnv(sandbox, tempDir()), SVC_URL: nginx.url, SVC_RATE_LIMIT: '0' },
      cwd: '/nonexistent-cwd',
      fs,
      homeDir: '/nonexistent-home',
    });
    const client = createDashboardClient(settings);
    try {
      const live = await client.readLive({ siteIds: ids });
      expect(live.sites.map((s) => s.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    } finally {
      await client.close();
    }
  });

  it('plans, applies and confirms a seeded fleet through nginx', async () => {
    const small = await startSandbox({
      fleet: generateFleet({ sites: 300, pendingPerSite: 3, ignoredPerSite: 2, seed: 29 }),
      profile: 'compat-6.1',
    });
    const front = await startNginx(small.url);
    try {
      await applyThrough(small, front);
    } finally {
      await front.stop();
      await small.close();
    }
  }, 60_000);
});

/** `plan --out` then `apply PLANFILE` through nginx: every action done and confirmed. */
async function applyThrough(sandbox: RunningSandbox, nginx: NginxFront): Promise<void> {
  const cwd = tempDir('svc-gitops-nginx-');
  writeFileSync(
    join(cwd, 'svc-gitops.yaml'),
    'version: 1\nupdates:\n  - name: routine\n    sites: [all]\n    kinds: [plugins, themes, translations]\n    max: minor\napproval:\n  max_sites: 1000000\n',
  );
  const env = { ...sandboxEnv(sandbox, tempDir()), SVC_URL: nginx.url, SVC_RATE_LIMIT: '0' };
  const planned = await cli(['plan', '--out', 'plan.json', '--format', 'json'], { env, cwd });
  expect(planned.code, planned.stderr.slice(-2000)).toBe(0);
  await resetStats(sandbox);
  const applied = await cli(['apply', 'plan.json', '--format', 'json'], { env, cwd });
  expect(applied.code, `${applied.stderr.slice(-2000)}\n${nginx.errors().slice(-2000)}`).toBe(0);
  const report = JSON.parse(applied.stdout) as { counts: Record<string, number> };
  expect(report.counts.failed).toBe(0);
  expect(report.counts.done).toBeGreaterThan(0);
  expect(applied.stdout).not.toContain('"unverified":true');
  expect((await sandboxStats(sandbox)).requests['refused: too large'] ?? 0).toBe(0);
}
