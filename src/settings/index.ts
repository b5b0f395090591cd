import type * as nodeFs from 'node:fs';
import { SvcError } from '../errors.js';
import { readEnvSettings } from './env.js';
import { findSettingsFile } from './file.js';
import { createSettingsValidator } from './schema.js';
import {
  DEFAULT_PRODUCT,
  productVariable,
  type SettingKey,
  type Settings,
  settingVariable,
} from './types.js';
import { withOwnKeys } from './vendor.js';

export { settingsFileCandidates, userSettingsFile } from './file.js';
export { createSettingsValidator } from './schema.js';
export { SECRET_KEYS, SETTING_ENV, type SettingKey, type Settings, settingVariable } from './types.js';
export { FILE_KEY_ALIASES, VARIABLE_ALIASES } from './vendor.js';

export interface LoadSettingsOptions {
  env: Record<string, string | undefined>;
  cwd: string;
  fs: typeof nodeFs;
  homeDir: string;
  /** Highest precedence (command-line flags). */
  overrides?: Partial<Settings>;
  /**
   * The product name in variable and file names (`svc`: SVC_URL, ~/.config/svc-mcp/); the tool
   * server's `--namespace` changes it.
   */
  product?: string;
  /**
   * Loaded for the tool server: `compatibility: "vendor"` then also takes the vendor's defaults
   * (safeMode false unless set). The CLI's safe mode never follows a tool-server setting.
   */
  toolServer?: boolean;
}

export interface LoadedSettings {
  settings: Settings;
  warnings: string[];
  /** Where values came from, lowest precedence first: `defaults`, `file:<path>`, `env:<VAR>`, `overrides`. */
  source: string[];
}

/**
 * Settings in effect: overrides beat the environment, which beats the first settings file found,
 * which beats the schema defaults. Throws SETTINGS_INVALID naming the file or variable and key.
 * A missing dashboard URL is not an error here (commands that need none still run); the
 * dashboard client refuses to start without one.
 */
export function loadSettings(options: LoadSettingsOptions): LoadedSettings {
  const validator = createSettingsValidator();
  const warnings: string[] = [];
  const source = ['defaults'];
  const product = options.product ?? DEFAULT_PRODUCT;
  // An empty variable counts as unset, as every SVC_* setting does.
  const dashboard = options.env[productVariable('DASHBOARD', product)] || undefined;
  const file = findSettingsFile(options.fs, options.cwd, options.homeDir, validator, product, dashboard);
  let fileValues: Record<string, unknown> = {};
  if (file) {
    // fromEntries defines properties, so even a `__proto__` key could not reach a prototype.
    const own = withOwnKeys(file.values, file.path);
    warnings.push(...own.warnings);
    fileValues = Object.fromEntries(Object.entries(own.values).filter(([key]) => key !== '_comment'));
    source.push(file.dashboard === undefined ? `file:${file.path}` : `file:${file.path}#${file.dashboard}`);
    if (file.inWorkingDirectory) {
      warnings.push(
        `using settings from ${file.path} in the working directory (it shadows the per-user file)`,
      );
    }
  }
  const fromEnv = readEnvSettings(options.env, validator, product);
  for (const variable of fromEnv.used) source.push(`env:${variable}`);
  warnings.push(...fromEnv.misspelt);
  const overrides = withoutUndefined(options.overrides ?? {});
  if (Object.keys(overrides).length > 0) source.push('overrides');

  const merged = {
    ...validator.defaults(),
    dashboardUrl: '',
    ...fileValues,
    ...fromEnv.values,
    ...overrides,
  };
  validator.check(merged, 'settings overrides');
  const settings = merged as unknown as Settings;
  const given = (key: SettingKey) => key in fileValues || key in fromEnv.values || key in overrides;
  // The vendor's tool server has safe mode off unless asked; `vendor` compatibility follows it.
  if (options.toolServer && settings.compatibility === 'vendor' && !given('safeMode'))
    settings.safeMode = false;
  if (!settings.retryEnabled) settings.maxRetries = 1;
  settings.dashboardUrl = checkDashboardUrl(settings, warnings, product);
  // skipSslVerify is warned of by the dashboard client, when a command connects: once per run.
  const hasBasic = Boolean(settings.username && settings.applicationPassword);
  if (!hasBasic && settings.token) {
    warnings.push(
      `only a REST token is set: the abilities API needs a username and an application password (${settingVariable('username', product)}, ${settingVariable('applicationPassword', product)})`,
    );
  }
  return { settings, warnings, source };
}

/** Validates the URL form; returns it without trailing slashes. */
function checkDashboardUrl(settings: Settings, warnings: string[], product: string): string {
  const variable = (key: SettingKey) => settingVariable(key, product);
  const raw = settings.dashboardUrl.trim();
  if (raw === '') return '';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SvcError('SETTINGS_INVALID', 'dashboardUrl is not a valid URL', {
      hint: `Set ${variable('dashboardUrl')} (or dashboardUrl) to the dashboard address, e.g. https://dashboard.example.com`,
    });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new SvcError('SETTINGS_INVALID', `dashboardUrl must use https (got ${url.protocol})`, {
      hint: `Set ${variable('dashboardUrl')} (or dashboardUrl) to the dashboard address, e.g. https://dashboard.example.com`,
    });
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new SvcError('SETTINGS_INVALID', 'dashboardUrl must not carry credentials, a query or a fragment', {
      hint: `Put credentials in ${variable('username')} / ${variable('applicationPassword')} / ${variable('token')} instead.`,
    });
  }
  if (url.protocol === 'http:') {
    if (!settings.allowHttp) {
      throw new SvcError(
        'SETTINGS_INVALID',
        `dashboardUrl ${url.origin} uses HTTP which transmits credentials in plain text`,
        { hint: `Use https, or set allowHttp (${variable('allowHttp')}=true) for a local test dashboard.` },
      );
    }
    // Over loopback the credentials never leave the machine (the sandbox): nothing to warn of.
    if (!isLoopback(url.hostname)) {
      warnings.push(`dashboardUrl ${url.origin} uses plain HTTP: credentials travel unencrypted`);
    }
  }
  return (url.origin + url.pathname).replace(/\/+$/, '');
}

/** localhost, 127.0.0.0/8 or [::1]: an address that never leaves this machine. */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
