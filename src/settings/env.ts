import { closest } from '../config/did-you-mean.js';
import { SvcError } from '../errors.js';
import type { SettingsValidator } from './schema.js';
import { productVariable, SETTING_ENV, type SettingKey, settingVariable } from './types.js';
import { firstNamespace, VARIABLE_ALIASES } from './vendor.js';

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

export interface EnvSettings {
  values: Partial<Record<SettingKey, unknown>>;
  /** Names of the variables that were used. */
  used: string[];
  /** Warnings for set SVC_* variables that are no setting but one typo from one (`SVC_APP_PASWORD`). */
  misspelt: string[];
}

/** SVC_* variables the program reads besides the settings. */
const OTHER_VARIABLES = ['SVC_GITOPS_DEBUG', 'SVC_GITOPS_STATE_DIR'];

/**
 * Reads every SVC_* setting variable. An empty variable counts as unset; booleans accept
 * true/1/yes/on and false/0/no/off; integers must be whole decimal numbers. A bad value is an
 * error naming the variable (never its value: it may be a credential).
 */
export function readEnvSettings(
  env: Record<string, string | undefined>,
  validator: SettingsValidator,
  product = 'svc',
): EnvSettings {
  const values: Partial<Record<SettingKey, unknown>> = {};
  const used: string[] = [];
  for (const key of Object.keys(SETTING_ENV) as SettingKey[]) {
    const variable = settingVariable(key, product);
    const raw = env[variable];
    if (raw === undefined || raw.trim() === '') continue;
    values[key] = convert(raw.trim(), validator.typeOf(key), variable);
    used.push(variable);
  }
  const warnings: string[] = [];
  readAliases(env, validator, product, values, used, warnings);
  validator.check(values, 'environment', (key) =>
    key in SETTING_ENV ? settingVariable(key as SettingKey, product) : key,
  );
  return { values, used, misspelt: [...warnings, ...misspeltVariables(env, product)] };
}

/**
 * The vendor's variables for our settings (`MAINWP_MAX_RETRIES`, `MAINWP_ABILITY_NAMESPACES`):
 * read with the same meaning; one set together with ours to another value is an error.
 */
function readAliases(
  env: Record<string, string | undefined>,
  validator: SettingsValidator,
  product: string,
  values: Partial<Record<SettingKey, unknown>>,
  used: string[],
  warnings: string[],
): void {
  for (const [suffix, key] of Object.entries(VARIABLE_ALIASES)) {
    const variable = productVariable(suffix, product);
    const raw = env[variable];
    if (raw === undefined || raw.trim() === '') continue;
    const value =
      key === 'namespace'
        ? firstNamespace(raw.split(','), variable, warnings)
        : convert(raw.trim(), validator.typeOf(key), variable);
    if (key in values && values[key] !== value) {
      throw new SvcError(
        'SETTINGS_INVALID',
        `${variable} and ${settingVariable(key, product)} are one setting`,
        {
          hint: `Unset one of them (${variable} is the dashboard vendor's name for it).`,
          details: { variable },
        },
      );
    }
    values[key] = value;
    used.push(variable);
  }
}

/**
 * A misspelt variable is otherwise silently ignored, and the setting it meant falls back to its
 * default (a password that "is not set"). Only names one typo or so from a known one are named,
 * never values: any other SVC_* variable may belong to something else.
 */
function misspeltVariables(env: Record<string, string | undefined>, product: string): string[] {
  const prefix = settingVariable('dashboardUrl', product).slice(0, -'URL'.length);
  const known = [
    ...(Object.keys(SETTING_ENV) as SettingKey[]).map((key) => settingVariable(key, product)),
    ...Object.keys(VARIABLE_ALIASES).map((suffix) => productVariable(suffix, product)),
    ...OTHER_VARIABLES,
  ];
  const warnings: string[] = [];
  for (const name of Object.keys(env).sort()) {
    if (!name.startsWith(prefix) || known.includes(name) || !env[name]?.trim()) continue;
    const meant = closest(name, known);
    if (meant) warnings.push(`${name} is not a setting and is ignored: did you mean ${meant}?`);
  }
  return warnings;
}

function convert(raw: string, type: 'string' | 'boolean' | 'integer', variable: string): unknown {
  if (type === 'string') return raw;
  if (type === 'boolean') {
    const word = raw.toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
    throw invalid(variable, 'must be a boolean (true/1/yes/on or false/0/no/off)');
  }
  if (!/^-?\d+$/.test(raw)) throw invalid(variable, 'must be a whole number');
  return Number(raw);
}

function invalid(variable: string, what: string): SvcError {
  return new SvcError('SETTINGS_INVALID', `environment variable ${variable} ${what}`, {
    hint: `Fix or unset ${variable}.`,
    details: { variable },
  });
}
