import type * as nodeFs from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { DashboardClient } from '../dashboard/index.js';
import { isSvcError } from '../errors.js';
import { SecretMask } from '../secrets/index.js';
import { loadSettings, type Settings, settingVariable } from '../settings/index.js';
import { abilityTools } from './ability-tools.js';
import { argumentChecker } from './arguments.js';
import { serverSecrets, toolServerClient } from './dashboard-client.js';
import { createEngine, type GitopsEngine } from './gitops/engine.js';
import { PlanStore } from './gitops/plan-store.js';
import { gitopsTools } from './gitops/tools.js';
import { CallRate, SessionBudget } from './limits.js';
import { promptList, promptText, readResource, resourceList } from './resources.js';
import { type Login, type SetupState, setupTools } from './setup.js';
import { ConfirmationTokens } from './tokens.js';
import {
  answerResult,
  type CallToolResult,
  type ComposedOutcome,
  callToolResult,
  isPassedOn,
  type PassedOnAnswer,
  type ToolDef,
  type ToolOutcome,
  toolError,
} from './tool-result.js';

export const SERVER_VERSION = '0.1.0';

/**
 * The tool server's own limits when the settings leave them unset (the CLI then has none): the
 * shipped tool server's defaults (dashboard-facts Appendix A). An agent in a loop is the case
 * they are for; a person running the CLI is not.
 */
export const DEFAULT_CALLS_PER_MINUTE = 60;
export const DEFAULT_SESSION_DATA = 50 * 1024 * 1024;

export interface ToolServerOptions {
  env: Record<string, string | undefined>;
  cwd: string;
  fs: typeof nodeFs;
  /**
   * The file system `configure` saves the login with: the settings file must hold the password
   * as typed, so a front end that masks secrets in what it writes passes its unmasked one here.
   * Absent: `fs`.
   */
  settingsFs?: typeof nodeFs;
  homeDir: string;
  /** `--namespace`: the product name in tool prefixes, variables, file names and the interface. */
  namespace?: string;
  /** Wall clock (tokens, rate limit, plans); injected in tests. */
  now?: () => Date;
  /** One line for the operator (stderr); never the protocol channel. */
  log: (line: string) => void;
  newToken?: () => string;
  /** Jitter source for the client's retry backoff (tests). */
  random?: () => number;
  /**
   * The call rate and data budget to count against, shared by every server of one process
   * (`mcp --http` makes one per session): a new session must not reset them (spec §8: only a
   * restart does). Absent: the server's own, from its settings.
   */
  limits?: ServerLimits;
}

/** The per-process limits of spec §8 that count tool calls and the data they answer. */
export interface ServerLimits {
  rate: CallRate;
  budget: SessionBudget;
}

export interface ToolServer {
  server: Server;
  /** The limits this server counts against (to share with the servers of later sessions). */
  limits: ServerLimits;
  /** The settings in effect (after a successful configure, the new ones). */
  settings(): Settings;
  close(): Promise<void>;
}

/**
 * The tool server (spec §4.3, §5, §7, §8): the dashboard's abilities as tools, and the GitOps
 * tools on the engine, behind one call path that applies, in order: allowed/blocked tools
 * (a hidden tool is an unknown tool), the session data budget, the call rate, the tool's own
 * argument schema, safe mode, then the tool (whose confirmation flow is its own), then the
 * response size limit and the session budget on what it answers. Settings are loaded once, as
 * the CLI loads them (environment over file over defaults); invalid settings throw.
 */
export function createToolServer(options: ToolServerOptions): ToolServer {
  const product = options.namespace ?? 'svc';
  const now = options.now ?? (() => new Date());
  const clock = () => now().getTime();
  const load = () =>
    loadSettings({
      env: options.env,
      cwd: options.cwd,
      fs: options.fs,
      homeDir: options.homeDir,
      product,
      ...(options.namespace ? { overrides: { namespace: options.namespace } } : {}),
    });
  let loaded = load();
  let settings = loaded.settings;
  const tokens = new ConfirmationTokens(clock, options.newToken);
  const plans = new PlanStore();
  const { rate, budget } = options.limits ?? {
    rate: new CallRate(settings.rateLimit ?? DEFAULT_CALLS_PER_MINUTE, clock),
    budget: new SessionBudget(settings.maxSessionData ?? DEFAULT_SESSION_DATA),
  };
  let secrets = new SecretMask(serverSecrets(settings));
  /** The server's log, masked as its answers are: a warning may quote the dashboard or a file. */
  const log = (line: string) => options.log(secrets.mask(line));
  for (const warning of loaded.warnings) log(`warning: ${warning}`);

  let client: DashboardClient | undefined;
  let engine: GitopsEngine | undefined;
  let state: SetupState = initialState(settings);
  /** Tools of the connected dashboard, built once per connection. */
  let connectedTools: ToolDef[] | undefined;
  /** The connected tools and the setup tools by name (every call looks its tool up). */
  let connectedIndex = new Map<string, ToolDef>();
  /** Whether the allow/block lists show a tool: built once per settings. */
  let visible = toolFilter(settings);

  const server = new Server(
    { name: `${product}-gitops`, version: SERVER_VERSION },
    { capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} } },
  );

  const openClient = (from: Settings): DashboardClient =>
    toolServerClient(from, {
      product,
      log,
      ...(options.random ? { random: options.random } : {}),
    });

  /** Connects with the loaded settings: reads the catalogue and builds every tool. */
  const connect = async (signal?: AbortSignal): Promise<SetupState> => {
    if (state.state === 'unconfigured') return state;
    await client?.close();
    client = openClient(settings);
    const live = client;
    engine = createEngine({
      client: live,
      settings,
      fs: options.fs,
      cwd: options.cwd,
      now,
      stateDir: options.env.SVC_GITOPS_STATE_DIR || '.svc-gitops',
      variable: (setting) => settingVariable(setting, product),
      tokenVariable: settingVariable('token', product),
      replan: `call ${product}_plan again, show the new plan to the user, and apply with its new token`,
      onWarning: (message) => log(`warning: ${message}`),
    });
    const host = new URL(settings.dashboardUrl).host;
    try {
      const capabilities = await live.capabilities();
      const abilities =
        capabilities.surface === 'abilities' ? await live.abilities(signal ? { signal } : {}) : [];
      connectedTools = [
        ...gitopsTools({
          prefix: product,
          engine: () => requireEngine(),
          tokens,
          plans,
          safeMode: settings.safeMode,
        }),
        ...abilityTools(abilities, {
          client: live,
          prefix: product,
          tokens,
          requireUserConfirmation: settings.requireUserConfirmation,
        }),
      ];
      connectedIndex = byName([...connectedTools, ...setup]);
      const note =
        capabilities.surface === 'abilities'
          ? undefined
          : `the dashboard has no abilities API: only the ${product}_* GitOps tools are offered (reads go through the REST API v2)`;
      if (note) log(`note: ${note}`);
      state = {
        state: 'ready',
        dashboardHost: host,
        abilitiesCount: abilities.length,
        surface: capabilities.surface,
        ...(note ? { note } : {}),
      };
    } catch (error) {
      connectedTools = undefined;
      const problem = isSvcError(error) ? `${error.code}: ${error.message}` : String(error);
      log(`warning: the dashboard at ${host} is not usable yet: ${problem}`);
      state = { state: 'degraded', dashboardHost: host, problem };
    }
    return state;
  };
  const requireEngine = (): GitopsEngine => {
    if (!engine) throw new McpError(ErrorCode.InternalError, 'the tool server is not connected');
    return engine;
  };

  const setup = setupTools({
    prefix: product,
    env: options.env,
    fs: options.settingsFs ?? options.fs,
    cwd: options.cwd,
    homeDir: options.homeDir,
    allowHttp: settings.allowHttp,
    state: () => state,
    recheck: async (signal) => {
      const before = state.state;
      const after = await connect(signal);
      if (before !== 'ready' && after.state === 'ready') await server.sendToolListChanged();
      return after;
    },
    probe: async (login: Login, signal) => {
      const probing = openClient({ ...settings, ...login });
      try {
        return (await probing.abilities({ signal })).length;
      } finally {
        await probing.close();
      }
    },
    reload: async (signal) => {
      loaded = load();
      settings = loaded.settings;
      visible = toolFilter(settings);
      secrets = new SecretMask(serverSecrets(settings));
      state = initialState(settings);
      const after = await connect(signal);
      if (after.state === 'ready') await server.sendToolListChanged();
      return after;
    },
  });
  const checkers = new Map(
    [...setup, ...gitopsTools({ prefix: product, engine: requireEngine, tokens, plans, safeMode: true })].map(
      (tool) => [tool.name, argumentChecker(tool.inputSchema)],
    ),
  );
  const gitopsNames = new Set(
    gitopsTools({ prefix: product, engine: requireEngine, tokens, plans, safeMode: true }).map(
      (tool) => tool.name,
    ),
  );

  const setupIndex = byName(setup);
  /** Every tool of the current state before the allow/block lists. */
  const allTools = async (signal?: AbortSignal): Promise<ToolDef[]> => {
    // A server that is not connected yet (or could not connect) tries again on each list or call.
    if (state.state !== 'unconfigured' && !connectedTools) await connect(signal);
    return state.state === 'ready' && connectedTools ? [...connectedTools, ...setup] : setup;
  };
  /** The tool `name` of the current state (before the allow/block lists), as allTools would list it. */
  const findTool = async (name: string, signal: AbortSignal): Promise<ToolDef | undefined> => {
    if (state.state !== 'unconfigured' && !connectedTools) await connect(signal);
    return (state.state === 'ready' && connectedTools ? connectedIndex : setupIndex).get(name);
  };

  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => ({
    tools: (await allTools(extra.signal))
      .filter((tool) => visible(tool.name))
      .map((tool) => ({
        name: tool.name,
        ...(tool.title ? { title: tool.title } : {}),
        description: tool.description,
        inputSchema: tool.inputSchema as { type: 'object' },
        annotations: tool.annotations,
      })),
  }));

  /**
   * tools/call arrives through the fallback handler (the SDK's public hook for methods without a
   * handler of their own), not setRequestHandler: for tools/call the SDK's Server validates the
   * request twice and the result once more with zod on every call, and a result here is built by
   * this module's own typed functions. The request's shape is checked here instead (callParams:
   * InvalidParams, as the SDK's Server answers a malformed call). Every other method keeps the
   * SDK's handlers, and a method without one is still "Method not found".
   */
  server.fallbackRequestHandler = async (request, extra) => {
    if (request.method !== 'tools/call') throw methodNotFound();
    const { name, args } = callParams(request.params);
    if (!visible(name)) throw unknownTool(name);
    const tool = await findTool(name, extra.signal);
    if (!tool) {
      if (state.state !== 'ready' && (gitopsNames.has(name) || state.state === 'degraded')) {
        return callToolResult(notConfigured(product, state));
      }
      throw unknownTool(name);
    }
    return guarded(tool, args, extra.signal);
  };

  /** The checks before a tool runs, in the order of createToolServer's comment; a refusal or undefined. */
  const refusal = (tool: ToolDef, args: Record<string, unknown>): ComposedOutcome | undefined => {
    if (budget.isExhausted) return exhausted(tool.name);
    if (!rate.admit()) {
      return toolError(
        'RATE_LIMITED',
        `Rate limit exceeded: more than ${rate.perMinute} tool calls in one minute`,
        {
          tool: tool.name,
          reason: `rateLimit is ${rate.perMinute} calls per minute`,
          resolution: 'wait a minute before calling again',
        },
      );
    }
    const problem = checkers.get(tool.name)?.(args);
    if (problem) return toolError('INVALID_PARAMETER', problem, { tool: tool.name });
    if (tool.destructive && settings.safeMode) {
      return toolError('SAFE_MODE_BLOCKED', `${tool.name} changes the dashboard and safe mode is on`, {
        tool: tool.name,
        reason: 'safe mode refuses destructive operations before any call to the dashboard',
        resolution: `change the dashboard through ${product}_plan and ${product}_apply (a plan the user approves), or an operator can set safeMode false (${settingVariable('safeMode', product)}=false)`,
      });
    }
    return undefined;
  };

  const guarded = async (
    tool: ToolDef,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<CallToolResult> => {
    const refused = refusal(tool, args);
    if (refused) return callToolResult(refused);
    let outcome: ToolOutcome;
    try {
      outcome = await tool.run(args, signal);
    } catch (error) {
      if (error instanceof McpError) throw error;
      outcome = isSvcError(error)
        ? toolError(error.code, error.message, {
            tool: tool.name,
            ...(error.hint ? { resolution: error.hint } : {}),
          })
        : toolError('INTERNAL', error instanceof Error ? error.message : String(error), { tool: tool.name });
    }
    return limited(tool.name, outcome);
  };

  /** Enforces maxResponseSize and maxSessionData on the bytes a result's contents hold. */
  const limited = (tool: string, outcome: ToolOutcome): CallToolResult => {
    if (isPassedOn(outcome)) return withinLimits(tool, Buffer.byteLength(outcome.answerJson), outcome);
    return composed(tool, outcome);
  };
  const withinLimits = (
    tool: string,
    bytes: number,
    outcome: PassedOnAnswer | { composed: ComposedOutcome; json: string },
  ): CallToolResult => {
    if (bytes > settings.maxResponseSize) {
      return callToolResult(
        toolError(
          'RESPONSE_TOO_LARGE',
          `Response too large: ${bytes} bytes exceeds the maximum allowed ${settings.maxResponseSize} bytes`,
          { tool, resolution: 'ask for less (a page, fewer sites or types), or raise maxResponseSize' },
        ),
      );
    }
    if (!budget.take(bytes)) return callToolResult(exhausted(tool));
    return 'answerJson' in outcome ? answerResult(outcome) : callToolResult(outcome.composed, outcome.json);
  };
  /**
   * A composed result: credentials masked (it may quote anything: arguments, files, a preview),
   * its structured content serialised once, counted with its text.
   */
  const composed = (tool: string, outcome: ComposedOutcome): CallToolResult => {
    let json = JSON.stringify(outcome.structured);
    let text = outcome.text ?? json;
    const leaks = (value: string) => secrets.finds(value);
    if (leaks(json) || (text !== json && leaks(text))) {
      // Strings are masked one by one: a mask over the JSON text could cut an escape in two.
      const structured = JSON.parse(json, (_key, value: unknown) =>
        typeof value === 'string' ? secrets.mask(value) : value,
      ) as Record<string, unknown>;
      json = JSON.stringify(structured);
      text = text === outcome.text ? secrets.mask(text) : json;
      outcome = { structured, text, ...(outcome.isError ? { isError: true } : {}) };
    }
    const jsonBytes = Buffer.byteLength(json);
    const bytes = jsonBytes + (text === json ? jsonBytes : Buffer.byteLength(text));
    return withinLimits(tool, bytes, { composed: { ...outcome, text }, json });
  };
  const exhausted = (tool: string): ComposedOutcome =>
    toolError(
      'RESOURCE_EXHAUSTED',
      `Session data limit exceeded (${budget.usedBytes} of ${budget.limit} bytes). Restart the tool server to continue.`,
      {
        tool,
        reason: 'maxSessionData counts every result since the tool server started, over every session',
        resolution:
          'only a restart of the tool server resets the count (a new session or reconnect does not); an operator can raise maxSessionData',
      },
    );

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: resourceList(product) }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const text = readResource(product, request.params.uri, plans);
    if (text === undefined)
      throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${request.params.uri}`);
    const entry = resourceList(product).find((resource) => resource.uri === request.params.uri);
    return { contents: [{ uri: request.params.uri, mimeType: entry?.mimeType ?? 'text/plain', text }] };
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: promptList() }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const text = promptText(product, request.params.name, request.params.arguments?.config);
    if (text === undefined)
      throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    return { messages: [{ role: 'user', content: { type: 'text', text } }] };
  });

  return {
    server,
    settings: () => settings,
    limits: { rate, budget },
    async close() {
      await server.close();
      await client?.close();
    },
  };
}

function initialState(settings: Settings): SetupState {
  if (!settings.dashboardUrl) return { state: 'unconfigured', missing: 'url' };
  const login = Boolean(settings.username && settings.applicationPassword) || Boolean(settings.token);
  if (!login) return { state: 'unconfigured', missing: 'credentials' };
  // Not connected yet: the first list or call reads the catalogue.
  return {
    state: 'degraded',
    dashboardHost: new URL(settings.dashboardUrl).host,
    problem: 'not connected yet',
  };
}

/** Whether `allowedTools` (empty: every tool) and `blockedTools` let a client see the tool `name`. */
function toolFilter(settings: Settings): (name: string) => boolean {
  const allowed = toolNames(settings.allowedTools);
  const blocked = toolNames(settings.blockedTools);
  return (name) => (allowed.size === 0 || allowed.has(name)) && !blocked.has(name);
}

function byName(tools: readonly ToolDef[]): Map<string, ToolDef> {
  return new Map(tools.map((tool) => [tool.name, tool]));
}

/**
 * The name and arguments of a tools/call request, as the protocol's schema requires them: a
 * string name and, when present, an object of arguments (InvalidParams otherwise).
 */
function callParams(params: unknown): { name: string; args: Record<string, unknown> } {
  const { name, arguments: args } = (isRecord(params) ? params : {}) as Record<string, unknown>;
  if (typeof name !== 'string') {
    throw new McpError(ErrorCode.InvalidParams, 'Invalid tools/call request: params.name must be a string');
  }
  if (args !== undefined && !isRecord(args)) {
    throw new McpError(
      ErrorCode.InvalidParams,
      'Invalid tools/call request: params.arguments must be an object',
    );
  }
  return { name, args: args ?? {} };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What the SDK answers for a method without a handler (JSON-RPC's "Method not found"). */
function methodNotFound(): Error {
  return Object.assign(new Error('Method not found'), { code: ErrorCode.MethodNotFound });
}

function toolNames(list: string): Set<string> {
  return new Set(
    list
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );
}

function unknownTool(name: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Tool not found: ${name}`);
}

function notConfigured(product: string, state: SetupState): ComposedOutcome {
  const message =
    state.state === 'degraded'
      ? `the tool server cannot use the dashboard at ${state.dashboardHost}: ${state.problem}`
      : 'the tool server has no dashboard configured';
  return {
    structured: {
      status: 'not_configured',
      state: state.state,
      message,
      guidance: `call ${product}_get_setup_status or ${product}_configure`,
    },
    text: `NOT_CONFIGURED: ${message}; call ${product}_get_setup_status or ${product}_configure`,
    isError: true,
  };
}
