import * as fs from 'node:fs';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolServer, type RunningHttp, type ServerLimits, serveHttp } from '../../src/mcp/index.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { fastClientEnv } from '../helpers/sandbox.js';
import { tempDirForFile } from '../helpers/temp-dir.js';
import { startSmallSandbox } from './helpers.js';

const TOKEN = 'a-long-operator-token-0123456789';

describe('svc-gitops mcp --http', () => {
  let sandbox: RunningSandbox;
  let http: RunningHttp;
  beforeAll(async () => {
    sandbox = await startSmallSandbox('spec');
    const home = tempDirForFile('svc-gitops-mcp-http-');
    http = await serveHttp({
      port: 0,
      token: TOKEN,
      log: () => {},
      newServer: () =>
        createToolServer({
          env: { ...fastClientEnv(sandbox), HOME: home },
          cwd: home,
          fs,
          homeDir: home,
          log: () => {},
        }),
    });
  });
  afterAll(async () => {
    await http.close();
    await sandbox.close();
  });

  it('listens on loopback only and serves a client that sends the bearer token', async () => {
    expect(http.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: 'http-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(http.url), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('list_updates_v1');
      const result = await client.callTool({ name: 'list_updates_v1', arguments: { per_page: 1 } });
      const [content] = result.content as Array<{ type: string; text: string }>;
      expect(JSON.parse(content?.text ?? '')).toMatchObject({ per_page: 1, total: 6 });
    } finally {
      await client.close();
    }
  });

  it('refuses requests without the token, with a wrong one, or for another Host', async () => {
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const none = await fetch(http.url, { method: 'POST', headers, body: initialize });
    expect(none.status).toBe(401);
    const wrong = await fetch(http.url, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${TOKEN}x` },
      body: initialize,
    });
    expect(wrong.status).toBe(401);
    // A page a browser loaded from another site, aimed at this port through DNS rebinding.
    const rebound = await new Promise<number>((resolve, reject) => {
      const url = new URL(http.url);
      const headersWithHost = {
        ...headers,
        authorization: `Bearer ${TOKEN}`,
        host: `evil.example:${url.port}`,
      };
      const req = request(
        { host: '127.0.0.1', port: url.port, path: url.pathname, method: 'POST', headers: headersWithHost },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(initialize);
    });
    expect(rebound).toBe(403);
  });

  it('a short token is refused at start', async () => {
    await expect(
      serveHttp({
        port: 0,
        token: 'short',
        log: () => {},
        newServer: () => {
          throw new Error('not reached');
        },
      }),
    ).rejects.toThrow(/at least 16 characters/);
  });
});

describe('svc-gitops mcp --http: one process, many sessions', () => {
  let sandbox: RunningSandbox;
  let http: RunningHttp;
  beforeAll(async () => {
    sandbox = await startSmallSandbox('spec');
    const home = tempDirForFile('svc-gitops-mcp-http-');
    const make = (limits?: ServerLimits) =>
      createToolServer({
        env: { ...fastClientEnv(sandbox), HOME: home, SVC_RATE_LIMIT: '3' },
        cwd: home,
        fs,
        homeDir: home,
        log: () => {},
        ...(limits ? { limits } : {}),
      });
    // As `svc-gitops mcp --http` does: every session counts against the first server's limits.
    const first = make();
    http = await serveHttp({ port: 0, token: TOKEN, log: () => {}, newServer: () => make(first.limits) });
  });
  afterAll(async () => {
    await http.close();
    await sandbox.close();
  });

  const session = async () => {
    const transport = new StreamableHTTPClientTransport(new URL(http.url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    });
    const client = new Client({ name: 'http-agent', version: '1.0.0' });
    await client.connect(transport);
    return { client, transport };
  };
  const status = async (client: Client) => {
    const result = await client.callTool({ name: 'svc_get_setup_status', arguments: {} });
    return (result.structuredContent ?? {}) as Record<string, unknown>;
  };

  it('a new session does not reset the call rate', async () => {
    const a = await session();
    const b = await session();
    try {
      expect(await status(a.client)).toMatchObject({ state: 'ready' });
      expect(await status(a.client)).toMatchObject({ state: 'ready' });
      expect(await status(b.client)).toMatchObject({ state: 'ready' });
      expect(await status(b.client)).toMatchObject({ code: 'RATE_LIMITED' });
      const c = await session();
      expect(await status(c.client)).toMatchObject({ code: 'RATE_LIMITED' });
      await c.client.close();
    } finally {
      await a.client.close();
      await b.client.close();
    }
  });

  it('sessions a client never closes are bounded: past 64, the least recently used is closed', async () => {
    const oldest = await session();
    const recent = await session();
    const others = [];
    for (let i = 0; i < 62; i++) others.push(await session());
    // Using `recent` makes `oldest` the least recently used; one more session closes it.
    await recent.client.listTools();
    others.push(await session());
    try {
      await expect(oldest.client.listTools()).rejects.toThrow(/unknown session/);
      expect((await recent.client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      for (const open of [oldest, recent, ...others]) await open.client.close().catch(() => {});
    }
  }, 60_000);
});

describe('svc-gitops mcp: command-line refusals', () => {
  it('--http without a token, a bad --namespace or port, each with exit 1 and what to do', async () => {
    const home = tempDirForFile('svc-gitops-mcp-cli-');
    const noToken = await cli(['mcp', '--http', '0'], { env: { HOME: home }, cwd: home });
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toMatch(
      /error \[SETTINGS_INVALID\]: --http needs a bearer token\n {2}hint: set httpToken/,
    );
    const badName = await cli(['mcp', '--namespace', 'Acme!'], { env: { HOME: home }, cwd: home });
    expect(badName.stderr).toMatch(/error \[USAGE\]: --namespace Acme! is not a valid name/);
    const badPort = await cli(['mcp', '--http', 'eighty'], { env: { HOME: home }, cwd: home });
    expect(badPort.stderr).toMatch(/error \[USAGE\]: --http eighty is not a port number/);
    const badSettings = await cli(['mcp'], { env: { HOME: home, SVC_RATE_LIMIT: 'fast' }, cwd: home });
    expect(badSettings.stderr).toMatch(/SVC_RATE_LIMIT must be a whole number/);
    expect(badSettings.stdout).toBe('');
  });
});
