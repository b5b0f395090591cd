import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { SvcError } from '../errors.js';
import { settingVariable } from '../settings/index.js';
import type { ToolServer } from './server.js';

/** Sessions kept open at once; the least recently used is closed beyond it. */
const MAX_SESSIONS = 64;

interface Session {
  transport: StreamableHTTPServerTransport;
  tool: ToolServer;
}

export interface HttpOptions {
  /** 0 picks a free port (tests). */
  port: number;
  /** The bearer token every request must carry. */
  token: string;
  /** One tool server per MCP session (its own tokens, plans and limits). */
  newServer: () => ToolServer;
  log: (line: string) => void;
  /** The product whose variables hints name (`svc`; the tool server's --namespace). */
  product?: string;
}

export interface RunningHttp {
  url: string;
  close(): Promise<void>;
}

/** Largest request body accepted: tool arguments, a desired-state YAML among them. */
const MAX_BODY = 5 * 1024 * 1024;

/** At least this long: a token an operator chose to keep other local users out. */
export const MIN_TOKEN_LENGTH = 16;

/**
 * Streamable HTTP on loopback only (127.0.0.1), for clients that cannot start a process. Every
 * request must carry `Authorization: Bearer <token>` (compared in constant time) and a loopback
 * Host header (DNS rebinding); anything else is refused before the MCP layer sees it.
 */
export async function serveHttp(options: HttpOptions): Promise<RunningHttp> {
  requireLongToken(options);
  const sessions = new Map<string, Session>();
  const hosts: { allowed: string[] } = { allowed: [] };
  const handle = requestHandler(options, sessions, hosts);
  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.log(`error: HTTP request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) refuse(res, 500, 'internal error');
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  hosts.allowed = [`127.0.0.1:${port}`, `localhost:${port}`];
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      for (const { transport, tool } of sessions.values()) {
        await transport.close();
        await tool.close();
      }
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/**
 * One request: the bearer token and the Host header first, then its session (kept in recency
 * order), or a new session for an initialize request.
 */
function requestHandler(options: HttpOptions, sessions: Map<string, Session>, hosts: { allowed: string[] }) {
  const expected = Buffer.from(`Bearer ${options.token}`);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return refuse(res, 401, 'a bearer token is required (Authorization: Bearer <httpToken>)');
    }
    if (!hosts.allowed.includes(req.headers.host ?? ''))
      return refuse(res, 403, 'Host must be a loopback address');
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    if (body instanceof Error) return refuse(res, 400, body.message);
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing && typeof sessionId === 'string') {
      // Map order is recency order: a used session moves to the end.
      sessions.delete(sessionId);
      sessions.set(sessionId, existing);
      return existing.transport.handleRequest(req, res, body);
    }
    if (sessionId !== undefined) return refuse(res, 404, 'unknown session');
    if (!isInitializeRequest(body))
      return refuse(res, 400, 'the first request of a session must be initialize');
    const transport = await openSession(options, sessions);
    await transport.handleRequest(req, res, body);
  };
}

/** A new MCP session: its own tool server; past MAX_SESSIONS the least recently used is closed. */
async function openSession(
  options: HttpOptions,
  sessions: Map<string, Session>,
): Promise<StreamableHTTPServerTransport> {
  const tool = options.newServer();
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: randomUUID,
    onsessioninitialized: (id) => {
      sessions.set(id, { transport, tool });
      // Sessions a client never closes must not pile up: the least recently used goes.
      while (sessions.size > MAX_SESSIONS) {
        const [oldest, entry] = sessions.entries().next().value as [string, Session];
        sessions.delete(oldest);
        void entry.transport.close();
      }
    },
  });
  transport.onclose = () => {
    if (transport.sessionId) sessions.delete(transport.sessionId);
    void tool.close();
  };
  await tool.server.connect(transport);
  return transport;
}

/** A token short enough to guess is refused before anything listens. */
function requireLongToken(options: HttpOptions): void {
  if (options.token.length >= MIN_TOKEN_LENGTH) return;
  throw new SvcError(
    'SETTINGS_INVALID',
    `the HTTP bearer token must be at least ${MIN_TOKEN_LENGTH} characters`,
    {
      hint: `set httpToken (${settingVariable('httpToken', options.product)}) to a long random value, e.g. \`openssl rand -hex 32\``,
    },
  );
}

function refuse(res: ServerResponse, status: number, message: string): void {
  const text = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return new Error(`the request body exceeds ${MAX_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return new Error('the request body is not JSON');
  }
}
