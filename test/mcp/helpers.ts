import * as fs from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { createToolServer, type ToolServer } from '../../src/mcp/index.js';
import {
  parseFleet,
  type RunningSandbox,
  type SandboxOptions,
  type SandboxProfile,
  startSandbox,
} from '../../src/sandbox/index.js';
import { sandboxControl } from '../helpers/sandbox.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/**
 * Three connected sites with pending updates every policy below allows and nothing failing, so
 * a plan applied in full leaves nothing to do. Site 3 has a core update (high risk).
 */
export const SMALL_FLEET = `
sites:
  - id: 1
    url: https://one.example.test/
    core: 6.8.3
    plugins:
      akismet/akismet.php: 5.3.6 -> 5.3.7
      classic-editor/classic-editor.php: 1.6.7 -> 1.6.8
  - id: 2
    url: https://two.example.test/
    core: 6.8.3
    plugins:
      akismet/akismet.php: 5.3.6 -> 5.3.7
    themes:
      astra: 4.11.1 -> 4.11.3
  - id: 3
    url: https://three.example.test/
    core: 6.8.1 -> 6.8.3
    plugins:
      akismet/akismet.php: 5.3.6 -> 5.3.7
`;

/** Plugins and themes within minor everywhere; classic-editor ignored everywhere. */
export const SMALL_CONFIG = `version: 1
ignores:
  rules:
    - sites: [all]
      plugins: [classic-editor/classic-editor.php]
updates:
  - name: routine
    sites: [all]
    kinds: [plugins, themes]
    max: minor
`;

/** The same plus core updates: a plan with a high-risk action. */
export const CORE_CONFIG = `${SMALL_CONFIG}  - name: core
    sites: [all]
    kinds: [core]
    max: minor
`;

export async function startSmallSandbox(
  profile: SandboxProfile,
  options: Partial<SandboxOptions> = {},
): Promise<RunningSandbox> {
  return startSandbox({ fleet: parseFleet(SMALL_FLEET, 'small-fleet.yaml'), profile, ...options });
}

/** A settable clock: tests move time instead of sleeping. */
export function testClock(start = Date.parse('2026-11-25T12:00:00.000Z')) {
  let now = start;
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}

export interface Connected {
  client: Client;
  tool: ToolServer;
  cwd: string;
  home: string;
  log: string[];
  /** Calls a tool; returns the structured content and the error flag. */
  call(
    name: string,
    args?: Record<string, unknown>,
  ): Promise<{ result: Record<string, unknown>; isError: boolean; text: string }>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  env?: Record<string, string | undefined>;
  files?: Record<string, string>;
  namespace?: string;
  clock?: ReturnType<typeof testClock>;
  home?: string;
  cwd?: string;
  /** The server's file system for everything but saving its settings (default: node:fs). */
  fs?: typeof fs;
  /**
   * The user behind the client: given, the client declares form elicitation and answers every
   * question the server asks with this; absent, it declares no elicitation.
   */
  user?: (question: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;
}

/**
 * The tool server in-process, driven by the SDK's client over the in-memory transport. The
 * working directory and HOME are fresh temp dirs (`files` are written into the working
 * directory), the journal goes to the working directory's `.svc-gitops/`.
 */
export async function connect(options: ConnectOptions = {}): Promise<Connected> {
  const cwd = options.cwd ?? tempDirForFile('svc-gitops-mcp-cwd-');
  const home = options.home ?? tempDirForFile('svc-gitops-mcp-home-');
  for (const [name, text] of Object.entries(options.files ?? {})) fs.writeFileSync(join(cwd, name), text);
  const log: string[] = [];
  let counter = 0;
  const tool = createToolServer({
    env: { HOME: home, ...options.env },
    cwd,
    fs: options.fs ?? fs,
    settingsFs: fs,
    homeDir: home,
    log: (line) => log.push(line),
    newToken: () => `token-${++counter}`,
    random: () => 0.5,
    ...(options.clock ? { now: options.clock.now } : {}),
    ...(options.namespace ? { namespace: options.namespace } : {}),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client(
    { name: 'test-agent', version: '1.0.0' },
    options.user ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  const { user } = options;
  if (user) client.setRequestHandler(ElicitRequestSchema, async (request) => user(request.params));
  await tool.server.connect(serverSide);
  await client.connect(clientSide);
  return {
    client,
    tool,
    cwd,
    home,
    log,
    async call(name, args = {}) {
      const response = await client.callTool({ name, arguments: args });
      const content = response.content as Array<{ type: string; text?: string }>;
      const text = content.map((part) => part.text ?? '').join('');
      return {
        result: (response.structuredContent ?? answerOf(text)) as Record<string, unknown>,
        isError: response.isError === true,
        text,
      };
    },
    async close() {
      await client.close();
      await tool.close();
    },
  };
}

/** A dashboard answer passed on as JSON text (no structured content), parsed; {} for other text. */
export function answerOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

export interface CatalogueItem {
  name: string;
  input_schema: { properties: Record<string, unknown> };
  meta: { annotations: { readonly: boolean; destructive: boolean; idempotent: boolean } };
}

/** The abilities catalogue as the dashboard sends it, read directly (not through our client). */
export async function catalogue(sandbox: RunningSandbox): Promise<CatalogueItem[]> {
  const { username, applicationPassword } = sandbox.credentials;
  const response = await fetch(`${sandbox.url}/wp-json/wp-abilities/v1/abilities?per_page=100`, {
    headers: {
      authorization: `Basic ${Buffer.from(`${username}:${applicationPassword}`).toString('base64')}`,
    },
  });
  return (await response.json()) as CatalogueItem[];
}

/**
 * Lists tools until the dashboard's are there: a server whose catalogue read timed out (a small
 * requestTimeout on a loaded machine) connects again on the next list.
 */
export async function untilConnected(agent: Connected, tries = 10): Promise<void> {
  for (let attempt = 0; attempt < tries; attempt++) {
    const { tools } = await agent.client.listTools();
    if (tools.some((tool) => tool.name.endsWith('_v1'))) return;
  }
  throw new Error(`the tool server did not connect in ${tries} tries`);
}

/**
 * What a test compares to prove that nothing was written: the dashboard's whole state (sites,
 * pending updates, ignores) and the number of updates it ran.
 */
export async function writes(
  sandbox: Pick<RunningSandbox, 'url'>,
): Promise<{ state: unknown; updatesRun: number }> {
  const control = sandboxControl(sandbox);
  const stats = (await control('GET', 'stats')) as { updates_run_total: number };
  return { state: await control('GET', 'state'), updatesRun: stats.updates_run_total };
}
