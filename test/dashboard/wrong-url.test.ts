import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDashboardClient } from '../../src/dashboard/index.js';
import { loadSettings } from '../../src/settings/index.js';
import { svcError as failure } from '../helpers/errors.js';
import { type Harness, openHarness } from './helpers/sandbox.js';
import { startServer, type TestServer, testSettings } from './helpers/server.js';

let h: Harness | undefined;
let server: TestServer | undefined;
afterEach(async () => {
  await h?.close();
  await server?.close();
  h = undefined;
  server = undefined;
});

/** Never in an error: a credential, or text of a body that is not the dashboard's. */
function expectNothingQuoted(error: { message: string; hint?: string | undefined }, ...forbidden: string[]) {
  const text = `${error.message}\n${error.hint ?? ''}`;
  for (const word of forbidden) expect(text).not.toContain(word);
}

describe('SVC_URL with a path below the site root (/wp-admin)', () => {
  it('says the URL answered 404 for the API routes and hints at the site root, with a REST key', async () => {
    h = await openHarness();
    const url = `${h.sandbox.url}/wp-admin`;
    const warnings: string[] = [];
    const error = await failure(
      h.client({ dashboardUrl: url, maxRetries: 1 }, { onWarning: (m) => warnings.push(m) }).readLive(),
    );
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toContain(`${url} answered HTTP 404 for the dashboard's API routes`);
    expect(error.message).toContain('/wp-json/wp-abilities/v1/abilities');
    expect(error.hint).toBe(
      `Set SVC_URL to the dashboard's site root, without /wp-admin or another path (e.g. ${h.sandbox.url}).`,
    );
    // No fallback to REST was announced: there is none at that URL either.
    expect(warnings.join('\n')).not.toContain('REST API v2');
    const { credentials } = h.sandbox;
    expectNothingQuoted(error, credentials.applicationPassword, credentials.token);
  });

  it('does the same without a REST key, and keeps the site root of a subdirectory install', async () => {
    h = await openHarness();
    const error = await failure(
      h
        .client({ dashboardUrl: `${h.sandbox.url}/blog/wp-admin/`, token: undefined, maxRetries: 1 } as never)
        .readLive(),
    );
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toContain(`${h.sandbox.url}/blog/wp-admin answered HTTP 404`);
    expect(error.hint).toContain('without /wp-admin or another path');
    expect(error.hint).toContain(`(e.g. ${h.sandbox.url}/blog)`);
  });

  it('the site root itself still reads as before', async () => {
    h = await openHarness();
    expect((await h.client().readLive()).sites).toHaveLength(4);
  });
});

/** Another web server on the dashboard's port, like `python3 -m http.server`: HTML for everything. */
async function htmlServer(status: number): Promise<TestServer> {
  return startServer((req, res) => {
    // It echoes the request path and the Authorization header, as some error pages do.
    const page = `<!DOCTYPE HTML><html><body><h1>Error response</h1><p>Message: File not found ${req.url} ${req.headers.authorization}</p></body></html>`;
    res.writeHead(status, {
      'content-type': 'text/html;charset=utf-8',
      'content-length': Buffer.byteLength(page),
    });
    res.end(page);
  });
}

describe('SVC_URL reaching another web server (a wrong port)', () => {
  it('an HTML 404 for everything: names the status and that it is HTML, not JSON, and asks if this is the dashboard', async () => {
    server = await htmlServer(404);
    const settings = testSettings(server.url, { token: 'cs_secret==ck_key', maxRetries: 1 });
    const error = await failure(createDashboardClient(settings).readLive());
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toBe(
      `${server.url} answered HTTP 404 for the dashboard's API routes (GET /wp-json/wp-abilities/v1/abilities, GET /wp-json/svc/v2/sites); the reply is an HTML page (text/html), not JSON`,
    );
    expect(error.hint).toBe(
      `Is this the dashboard? Check the host and port of SVC_URL (${server.url}); it should be the dashboard's site root.`,
    );
    expectNothingQuoted(error, 'Error response', 'File not found', 'cs_secret', 'abcd EFGH', 'Basic ');
  });

  it('an HTML page with 200: BAD_RESPONSE with the status and type, never the page', async () => {
    server = await htmlServer(200);
    const error = await failure(createDashboardClient(testSettings(server.url)).readLive());
    expect(error.code).toBe('BAD_RESPONSE');
    expect(error.message).toBe(
      'GET /wp-json/wp-abilities/v1/abilities: HTTP 200, but the reply is an HTML page (text/html), not JSON',
    );
    expect(error.hint).toBe(`Is this the dashboard? Check SVC_URL (${server.url}).`);
    expectNothingQuoted(error, 'Error response', 'abcd EFGH');
  });

  it('an HTML 403 or 400 keeps its code, says it is not JSON and asks if this is the dashboard', async () => {
    server = await htmlServer(403);
    const forbidden = await failure(createDashboardClient(testSettings(server.url)).readLive());
    expect(forbidden.code).toBe('FORBIDDEN');
    expect(forbidden.message).toContain('→ HTTP 403: the reply is an HTML page (text/html), not JSON');
    expect(forbidden.hint).toContain('Is this the dashboard? Check SVC_URL');
    expectNothingQuoted(forbidden, 'Error response');
    await server.close();
    // nginx and Apache answer plain HTTP on a TLS port with a 400 page of their own.
    server = await htmlServer(400);
    const bad = await failure(createDashboardClient(testSettings(server.url)).readLive());
    expect(bad.hint).toContain('if that port speaks TLS, use https://');
  });

  it("a proxy's HTML 502 page is retried like any 5xx, then reported by status", async () => {
    let calls = 0;
    server = await startServer((_req, res) => {
      calls++;
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>502 Bad Gateway</body></html>');
    });
    const error = await failure(
      createDashboardClient(testSettings(server.url, { maxRetries: 2 })).readLive(),
    );
    expect(calls).toBe(2);
    expect(error.code).toBe('HTTP_ERROR');
    expect(error.message).toContain('→ HTTP 502: the reply is an HTML page (text/html), not JSON');
    expect(error.hint).toContain('check its error log');
  });
});

describe('AUTH_FAILED names where the credentials can come from', () => {
  it('credentials from a settings file: the hint names its keys too, not only SVC_USER/SVC_APP_PASSWORD', async () => {
    h = await openHarness();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-gitops-auth-'));
    try {
      fs.writeFileSync(
        path.join(dir, 'settings.json'),
        JSON.stringify({
          dashboardUrl: h.sandbox.url,
          allowHttp: true,
          username: h.sandbox.credentials.username,
          applicationPassword: 'wron gpas swor d000',
          rateLimit: 0,
        }),
      );
      const { settings } = loadSettings({ env: {}, cwd: dir, fs, homeDir: '/nonexistent-home' });
      const client = createDashboardClient(settings);
      const error = await failure(client.readLive());
      await client.close();
      expect(error.code).toBe('AUTH_FAILED');
      expect(error.hint).toContain(
        "Check SVC_USER and SVC_APP_PASSWORD (or the settings file's username and applicationPassword)",
      );
      expectNothingQuoted(error, 'wron gpas', 'wrongpas');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
