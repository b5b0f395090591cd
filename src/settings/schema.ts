import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { closest } from '../config/did-you-mean.js';
import { SvcError } from '../errors.js';
import { validate as generatedValidator } from './generated/settings-validator.js';
import { SETTING_ENV, type SettingKey } from './types.js';

/**
 * The settings schema is a package asset (`schemas/`, shipped beside `dist/`), so it is read with
 * Node's own loader relative to this file: `src/settings` and `dist/settings` both sit two levels
 * below the package root.
 */
export interface SettingsSchema {
  /** `type` is absent where a key takes several forms (`anyOf`): its variable is then a string. */
  properties: Record<string, { type?: 'string' | 'boolean' | 'integer' | 'array'; default?: unknown }>;
}

export interface SettingsValidator {
  schema: SettingsSchema;
  /** Throws SETTINGS_INVALID naming `where` and the offending key. */
  check(value: unknown, where: string, label?: (key: string) => string): void;
  typeOf(key: SettingKey): 'string' | 'boolean' | 'integer';
  defaults(): Record<string, unknown>;
}

export function createSettingsValidator(): SettingsValidator {
  const schema = createRequire(import.meta.url)('../../schemas/settings.schema.json') as SettingsSchema;
  // Its validator is generated ahead of time (scripts/build-validators.ts); the schema itself is
  // checked against the meta-schema by test/config/shipped-schemas.test.ts.
  const validate = generatedValidator as ValidateFunction;
  return {
    schema,
    check(value, where, label = (key) => `key "${key}"`) {
      if (validate(value)) return;
      // Every problem at once (each key once): fixing a file one error per run is tedious.
      const problems = [...new Set((validate.errors ?? []).map((error) => describe(error, label)))];
      throw new SvcError('SETTINGS_INVALID', `${where}: ${problems.join('; ') || 'invalid settings'}`, {
        hint: '`svc-gitops --help` lists every setting and its SVC_* variable; the keys and types of a settings file: https://cdn.jsdelivr.net/npm/svc-gitops/schemas/settings.schema.json',
        details: { where },
      });
    },
    typeOf(key) {
      const property = schema.properties[key];
      if (!property) throw new SvcError('INTERNAL', `setting ${key} is missing from the settings schema`);
      return property.type === undefined || property.type === 'array' ? 'string' : property.type;
    },
    defaults() {
      const out: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties)) {
        if (property.default !== undefined) out[key] = property.default;
      }
      return out;
    },
  };
}

/** Every settings key, for did-you-mean. */
const KEYS = Object.keys(SETTING_ENV);

/** Names people write for a key that are too far from it for a typo check. */
const KEY_ALIASES: Readonly<Record<string, string>> = {
  user: 'username',
  url: 'dashboardUrl',
  dashboard: 'dashboardUrl',
  password: 'applicationPassword',
  apppassword: 'applicationPassword',
  apppasword: 'applicationPassword',
  app_password: 'applicationPassword',
};

/** One ajv error as a sentence that names the key (for additionalProperties ajv names the parent). */
function describe(error: ErrorObject | undefined, label: (key: string) => string): string {
  if (!error) return 'invalid settings';
  if (error.keyword === 'additionalProperties') {
    const key = String(error.params.additionalProperty);
    const meant = KEY_ALIASES[key.toLowerCase()] ?? closest(key, KEYS);
    return `unknown key "${key}"${meant ? ` (did you mean "${meant}"?)` : ''}`;
  }
  const key = error.instancePath.replace(/^\//, '');
  if (key === '') return `the settings must be a JSON object (${error.message ?? 'invalid'})`;
  return `${label(key)} ${error.message ?? 'is invalid'}`;
}
