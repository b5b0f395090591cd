import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { DashboardClient } from '../dashboard/index.js';
import { isSvcError } from '../errors.js';
import { SecretMask } from '../secrets/index.js';
import { type LoadedSettings, loadSettings, type Settings } from '../settings/index.js';
import { abilityTools } from './ability-tools.js';
import { argumentChecker } from './arguments.js';
import { serverSecrets, toolServerClient } from './dashboard-client.js';
import { PlanStore } from './gitops/plan-store.js';
import { type ToolSessions, toolSessions } from './gitops/server-sessions.js';
import { gitopsTools } from './gitops/tools.js';
import { CallRate, SessionBudget } from './limits.js';
import type { ServerLimits, ToolServerOptions } from './options.js';
import { type Login, type SetupState, setupTools } from './setup.js';
import { ConfirmationTokens } from './tokens.js';
import type { ToolDef } from './tool-result.js';

/**
 * The tool server's own limits when the settings leave them unset (the CLI then has none): the
 * shipped tool server's defaults (dashboard-facts Appendix A). An agent in a loop is the case
 * they are for; a person running the CLI is not.
 */
export const DEFAULT_CALLS_PER_MINUTE = 60;
export const DEFAULT_SESSION_DATA = 50 * 1024 * 1024;

/**
 * The state of one tool server: its settings (loaded once as the CLI loads them, environment over
 * file over defaults; invalid settings throw), its connection to the dashboard and the tools of
 * that connection, the tokens and plans of the session. Every list and call of a server that is
 * not connected yet (or could not connect) tries to connect again.
 */
export class ToolServerCore {
  readonly product: string;
  readonly now: () => Date;
  readonly tokens: ConfirmationTokens;
  readonly plans = new PlanStore();
  readonly limits: ServerLimits;
  readonly setup: ToolDef[];
  /** Argument checks of the server's own tools, and the names of the GitOps tools. */
  readonly checkers: ReadonlyMap<string, (args: unknown) => string | undefined>;
  readonly gitopsNames: ReadonlySet<string>;
  settings: Settings;
  secrets: SecretMask;
  state: SetupState;
  /** Whether the allow/block lists show a tool: built once per settings. */
  visible: (name: string) => boolean;
  /** Tells the client the tool list changed; set once the SDK server exists. */
  listChanged: () => Promise<void> = async () => {};
  private client: DashboardClient | undefined;
  private sessions: ToolSessions | undefined;
  /** Tools of the connected dashboard, built once per connection. */
  private connectedTools: ToolDef[] | undefined;
  /** The connected tools and the setup tools by name (every call looks its tool up). */
  private connectedIndex = new Map<string, ToolDef>();
  private readonly setupIndex: Map<string, ToolDef>;

  constructor(private readonly options: ToolServerOptions) {
    this.product = options.namespace ?? 'svc';
    this.now = options.now ?? (() => new Date());
    const loaded = this.load();
    this.settings = loaded.settings;
    this.secrets = new SecretMask(serverSecrets(this.settings));
    for (const warning of loaded.warnings) this.log(`warning: ${warning}`);
    const clock = () => this.now().getTime();
    this.tokens = new ConfirmationTokens(clock, options.newToken);
    this.limits = options.limits ?? {
      rate: new CallRate(this.settings.rateLimit ?? DEFAULT_CALLS_PER_MINUTE, clock),
      budget: new SessionBudget(this.settings.maxSessionData ?? DEFAULT_SESSION_DATA),
    };
    this.state = initialState(this.settings);
    this.visible = toolFilter(this.settings);
    this.setup = this.setupTools();
    this.setupIndex = byName(this.setup);
    const gitops = this.gitopsTools(true);
    this.checkers = new Map(
      [...this.setup, ...gitops].map((tool) => [tool.name, argumentChecker(tool.inputSchema)]),
    );
    this.gitopsNames = new Set(gitops.map((tool) => tool.name));
  }

  /** Every tool of the current state before the allow/block lists. */
  async tools(signal?: AbortSignal): Promise<ToolDef[]> {
    if (this.state.state !== 'unconfigured' && !this.connectedTools) await this.connect(signal);
    return this.state.state === 'ready' && this.connectedTools
      ? [...this.connectedTools, ...this.setup]
      : this.setup;
  }

  /** The tool `name` of the current state (before the allow/block lists), as tools() would list it. */
  async find(name: string, signal: AbortSignal): Promise<ToolDef | undefined> {
    if (this.state.state !== 'unconfigured' && !this.connectedTools) await this.connect(signal);
    return (this.state.state === 'ready' && this.connectedTools ? this.connectedIndex : this.setupIndex).get(
      name,
    );
  }

  /** The server's log, masked as its answers are: a warning may quote the dashboard or a file. */
  private log(line: string): void {
    this.options.log(this.secrets.mask(line));
  }

  async close(): Promise<void> {
    await this.client?.close();
  }

  private load(): LoadedSettings {
    const { options } = this;
    return loadSettings({
      env: options.env,
      cwd: options.cwd,
      fs: options.fs,
      homeDir: options.homeDir,
      product: this.product,
      toolServer: true,
      ...(options.namespace ? { overrides: { namespace: options.namespace } } : {}),
    });
  }

  private openClient(from: Settings): DashboardClient {
    return toolServerClient(from, {
      product: this.product,
      log: (line) => this.log(line),
      ...(this.options.random ? { random: this.options.random } : {}),
    });
  }

  /** Connects with the loaded settings: reads the catalogue and builds every tool. */
  private async connect(signal?: AbortSignal): Promise<SetupState> {
    if (this.state.state === 'unconfigured') return this.state;
    await this.client?.close();
    const live = this.openClient(this.settings);
    this.client = live;
    this.sessions = this.toolSessions(live);
    const host = new URL(this.settings.dashboardUrl).host;
    try {
      const capabilities = await live.capabilities();
      const abilities =
        capabilities.surface === 'abilities' ? await live.abilities(signal ? { signal } : {}) : [];
      this.connectedTools = [
        ...this.gitopsTools(this.settings.safeMode),
        ...abilityTools(abilities, {
          client: live,
          prefix: this.product,
          tokens: this.tokens,
          requireUserConfirmation: this.settings.requireUserConfirmation,
          gating: this.settings.compatibility === 'vendor' ? 'annotations' : 'writes',
          schemaVerbosity: this.settings.schemaVerbosity,
        }),
      ];
      this.connectedIndex = byName([...this.connectedTools, ...this.setup]);
      const note =
        capabilities.surface === 'abilities'
          ? undefined
          : `the dashboard has no abilities API: only the ${this.product}_* GitOps tools are offered (reads go through the REST API v2)`;
      if (note) this.log(`note: ${note}`);
      this.state = {
        state: 'ready',
        dashboardHost: host,
        abilitiesCount: abilities.length,
        surface: capabilities.surface,
        ...(note ? { note } : {}),
      };
    } catch (error) {
      this.connectedTools = undefined;
      const problem = isSvcError(error) ? `${error.code}: ${error.message}` : String(error);
      this.log(`warning: the dashboard at ${host} is not usable yet: ${problem}`);
      this.state = { state: 'degraded', dashboardHost: host, problem };
    }
    return this.state;
  }

  private toolSessions(live: DashboardClient): ToolSessions {
    const { options } = this;
    return toolSessions({
      client: live,
      settings: this.settings,
      fs: options.fs,
      cwd: options.cwd,
      env: options.env,
      now: this.now,
      product: this.product,
      onWarning: (message) => this.log(`warning: ${message}`),
    });
  }

  private gitopsTools(safeMode: boolean): ToolDef[] {
    return gitopsTools({
      prefix: this.product,
      sessions: () => {
        if (!this.sessions) throw new McpError(ErrorCode.InternalError, 'the tool server is not connected');
        return this.sessions;
      },
      tokens: this.tokens,
      now: this.now,
      plans: this.plans,
      safeMode,
    });
  }

  private setupTools(): ToolDef[] {
    const { options } = this;
    return setupTools({
      prefix: this.product,
      env: options.env,
      fs: options.settingsFs ?? options.fs,
      cwd: options.cwd,
      homeDir: options.homeDir,
      allowHttp: this.settings.allowHttp,
      state: () => this.state,
      recheck: async (signal) => {
        const before = this.state.state;
        const after = await this.connect(signal);
        if (before !== 'ready' && after.state === 'ready') await this.listChanged();
        return after;
      },
      probe: (login, signal) => this.probe(login, signal),
      reload: (signal) => this.reload(signal),
    });
  }

  private async probe(login: Login, signal: AbortSignal): Promise<number> {
    const probing = this.openClient({ ...this.settings, ...login });
    try {
      return (await probing.abilities({ signal })).length;
    } finally {
      await probing.close();
    }
  }

  /** After configure saved a login: the settings again, and a new connection with them. */
  private async reload(signal: AbortSignal): Promise<SetupState> {
    this.settings = this.load().settings;
    this.visible = toolFilter(this.settings);
    this.secrets = new SecretMask(serverSecrets(this.settings));
    this.state = initialState(this.settings);
    const after = await this.connect(signal);
    if (after.state === 'ready') await this.listChanged();
    return after;
  }
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

function toolNames(list: string): Set<string> {
  return new Set(
    list
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );
}

function byName(tools: readonly ToolDef[]): Map<string, ToolDef> {
  return new Map(tools.map((tool) => [tool.name, tool]));
}
