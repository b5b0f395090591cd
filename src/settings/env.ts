import { SvcError } from '../errors.js';
import type { SettingsValidator } from './schema.js';
import { SETTING_ENV, type SettingKey } from './types.js';

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

export interface EnvSettings {
  values: Partial<Record<SettingKey, unknown>>;
  /** Names of the variables that were used. */
  used: string[];
}

/**
 * Reads every SVC_* setting variable. An empty variable counts as unset; booleans accept
 * true/1/yes/on and false/0/no/off; integers must be whole decimal numbers. A bad value is an
 * error naming the variable (never its value: it may be a credential).
 */
export function readEnvSettings(
  env: Record<string, string | undefined>,
  validator: SettingsValidator,
): EnvSettings {
  const values: Partial<Record<SettingKey, unknown>> = {};
  const used: string[] = [];
  for (const [key, variable] of Object.entries(SETTING_ENV) as Array<[SettingKey, string]>) {
    const raw = env[variable];
    if (raw === undefined || raw.trim() === '') continue;
    values[key] = convert(raw.trim(), validator.typeOf(key), variable);
    used.push(variable);
  }
  validator.check(values, 'environment', (key) => SETTING_ENV[key as SettingKey] ?? key);
  return { values, used };
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
