import type * as nodeFs from 'node:fs';
import { dirname } from 'node:path';
import { isSvcError } from '../errors.js';
import { settingVariable, userSettingsFile } from '../settings/index.js';
import { type ToolDef, type ToolOutcome, toolOk } from './tool-result.js';

/** What setup mode needs of the server: its state, and how to try a connection. */
export interface SetupHost {
  prefix: string;
  env: Record<string, string | undefined>;
  fs: typeof nodeFs;
  cwd: string;
  homeDir: string;
  allowHttp: boolean;
  state(): SetupState;
  /** Re-checks the connection with the settings loaded (reads the catalogue). */
  recheck(signal: AbortSignal): Promise<SetupState>;
  /** Reads the catalogue with these credentials; the number of abilities, or throws. */
  probe(login: Login, signal: AbortSignal): Promise<number>;
  /** Loads the settings again (after a save) and connects with them. */
  reload(signal: AbortSignal): Promise<SetupState>;
}

export interface Login {
  dashboardUrl: string;
  username: string;
  applicationPassword: string;
}

export type SetupState =
  | { state: 'unconfigured'; missing: 'url' | 'credentials' }
  | { state: 'degraded'; dashboardHost: string; problem: string }
  | { state: 'ready'; dashboardHost: string; abilitiesCount: number; surface: string; note?: string };

const CONFIGURE_SCHEMA = {
  type: 'object',
  properties: {
    dashboard_url: { type: 'string', maxLength: 500, description: 'the dashboard site root, https://…' },
    username: { type: 'string', maxLength: 200, description: 'the user that owns the application password' },
    application_password: { type: 'string', maxLength: 200 },
  },
  required: ['dashboard_url', 'username', 'application_password'],
  additionalProperties: false,
};

/**
 * Setup mode (spec §4.3): the two tools a server without a dashboard URL or credentials lists.
 * `configure` connects such a server and saves the login to the per-user settings file; it
 * never overwrites what the operator set (environment, a loaded file, a working-directory file).
 */
export function setupTools(host: SetupHost): ToolDef[] {
  const { prefix } = host;
  let configuring = false;
  return [
    {
      name: `${prefix}_get_setup_status`,
      title: 'Setup status',
      description:
        'Says whether the tool server is connected to a dashboard, and re-checks the connection with the settings already loaded.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
      destructive: false,
      async run(_args, signal) {
        const current = host.state();
        const state = current.state === 'unconfigured' ? current : await host.recheck(signal);
        return toolOk({ ...state, guidance: guidance(host, state) });
      },
    },
    {
      name: `${prefix}_configure`,
      title: 'Connect to a dashboard',
      description:
        'Connects a tool server that has no dashboard configured: checks the login against the dashboard, then saves it to the per-user settings file. Refuses when a dashboard or credentials are already configured.',
      inputSchema: CONFIGURE_SCHEMA,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
      destructive: false,
      async run(args, signal) {
        if (configuring) return refused('CONFIGURE_IN_PROGRESS', 'another configure call is running');
        configuring = true;
        try {
          return await configure(host, args as unknown as ConfigureArgs, signal);
        } finally {
          configuring = false;
        }
      },
    },
  ];
}

interface ConfigureArgs {
  dashboard_url: string;
  username: string;
  application_password: string;
}

async function configure(host: SetupHost, args: ConfigureArgs, signal: AbortSignal): Promise<ToolOutcome> {
  const current = host.state();
  if (current.state !== 'unconfigured') {
    return refused(
      'ALREADY_CONFIGURED',
      `a dashboard is already configured (${current.dashboardHost}); its settings are never overwritten`,
    );
  }
  const variables = (['dashboardUrl', 'username', 'applicationPassword', 'token'] as const).map((key) =>
    settingVariable(key, prefix(host)),
  );
  const set = variables.filter((name) => host.env[name]?.trim());
  if (set.length > 0) {
    return refused(
      'ENV_CONFIGURED',
      `${set.join(', ')} ${set.length > 1 ? 'are' : 'is'} set in the environment; complete them there`,
    );
  }
  const shadow = `${host.cwd.replace(/\/+$/, '')}/settings.json`;
  if (host.fs.existsSync(shadow)) {
    return refused(
      'SHADOWED_BY_WORKING_DIRECTORY_FILE',
      `${shadow} exists and would shadow the per-user settings file; put the login there instead`,
    );
  }
  const file = userSettingsFile(host.homeDir, prefix(host));
  const existing = readSettingsFile(host, file);
  if (!existing.ok) return existing.refusal;
  const present = OPERATOR_KEYS.filter((key) => {
    const value = existing.settings[key];
    return typeof value === 'string' ? value.trim() !== '' : value !== undefined;
  });
  if (present.length > 0) {
    return refused(
      'SETTINGS_FILE_CONFIGURED',
      `${file} already sets ${present.join(', ')}; complete the login there (it is never overwritten)`,
    );
  }
  const url = checkUrl(args.dashboard_url, host.allowHttp);
  if (typeof url !== 'string') return url;
  if (args.username.trim() === '' || args.application_password.trim() === '') {
    return refused('INVALID_INPUT', 'username and application_password must not be empty');
  }
  const login = {
    dashboardUrl: url,
    username: args.username,
    applicationPassword: args.application_password,
  };
  let abilities: number;
  try {
    abilities = await host.probe(login, signal);
  } catch (error) {
    const message = isSvcError(error) ? `${error.code}: ${error.message}` : String(error);
    return refused(
      'CONNECTION_FAILED',
      `the dashboard did not accept the connection (nothing was saved): ${message}`,
    );
  }
  const unsaved = save(host, file, { ...existing.settings, ...login });
  if (unsaved) return unsaved;
  const state = await host.reload(signal);
  return toolOk({
    status: 'connected',
    dashboardHost: new URL(url).host,
    abilitiesCount: state.state === 'ready' ? state.abilitiesCount : abilities,
    message: 'Connected; the full tool list is now available.',
    savedTo: file,
    state: state.state,
  });
}

/** Writes the per-user settings file, owner-only; a refusal when it cannot. */
function save(host: SetupHost, file: string, settings: Record<string, unknown>): ToolOutcome | undefined {
  try {
    host.fs.mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    host.fs.writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
    host.fs.chmodSync(file, 0o600);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return refused('SAVE_FAILED', `the settings file ${file} could not be written (${code})`);
  }
}

/** Keys of a login, and named dashboards: set by the operator, configure leaves a file with any alone. */
const OPERATOR_KEYS = ['dashboardUrl', 'username', 'applicationPassword', 'token', 'dashboards'] as const;

/** The per-user settings file as an object ({} when there is none), or why configure cannot use it. */
function readSettingsFile(
  host: SetupHost,
  file: string,
): { ok: true; settings: Record<string, unknown> } | { ok: false; refusal: ToolOutcome } {
  if (!host.fs.existsSync(file)) return { ok: true, settings: {} };
  try {
    const parsed: unknown = JSON.parse(host.fs.readFileSync(file, 'utf8').toString());
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return { ok: true, settings: parsed as Record<string, unknown> };
  } catch {
    // Refused below, as any content that is not a settings object.
  }
  return {
    ok: false,
    refusal: refused('SETTINGS_FILE_INVALID', `${file} is not a JSON object; fix or remove it first`),
  };
}

function prefix(host: SetupHost): string {
  return host.prefix;
}

function checkUrl(raw: string, allowHttp: boolean): string | ToolOutcome {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return refused('INVALID_INPUT', 'dashboard_url is not a valid URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowHttp)) {
    return refused(
      'INVALID_INPUT',
      url.protocol === 'http:'
        ? 'dashboard_url uses HTTP which transmits credentials in plain text (allowHttp is off)'
        : `dashboard_url must use https (got ${url.protocol})`,
    );
  }
  if (url.username || url.password || url.search || url.hash) {
    return refused('INVALID_INPUT', 'dashboard_url must not carry credentials, a query or a fragment');
  }
  return (url.origin + url.pathname).replace(/\/+$/, '');
}

function refused(code: string, message: string): ToolOutcome {
  return { structured: { status: 'refused', code, message }, text: `${code}: ${message}`, isError: true };
}

function guidance(host: SetupHost, state: SetupState): string {
  const url = settingVariable('dashboardUrl', host.prefix);
  const user = settingVariable('username', host.prefix);
  const password = settingVariable('applicationPassword', host.prefix);
  if (state.state === 'unconfigured') {
    return `Call ${host.prefix}_configure with dashboard_url, username and application_password, or set ${url}, ${user} and ${password} in the client's env block and restart the server.`;
  }
  if (state.state === 'degraded') {
    return `Fix the problem (URL, credentials, network) and call ${host.prefix}_get_setup_status again.`;
  }
  return 'Connected: every tool is available.';
}
