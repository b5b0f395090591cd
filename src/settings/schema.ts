import { createRequire } from 'node:module';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { SvcError } from '../errors.js';
import type { SettingKey } from './types.js';

/**
 * The settings schema is a package asset (`schemas/`, shipped beside `dist/`), so it is read with
 * Node's own loader relative to this file: `src/settings` and `dist/settings` both sit two levels
 * below the package root.
 */
export interface SettingsSchema {
  properties: Record<string, { type: 'string' | 'boolean' | 'integer'; default?: unknown }>;
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
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  const validate = ajv.compile(schema);
  return {
    schema,
    check(value, where, label = (key) => `key "${key}"`) {
      if (validate(value)) return;
      const first = (validate.errors ?? [])[0];
      throw new SvcError('SETTINGS_INVALID', `${where}: ${describe(first, label)}`, {
        hint: 'Allowed keys and types are described in schemas/settings.schema.json.',
        details: { where },
      });
    },
    typeOf(key) {
      const property = schema.properties[key];
      if (!property) throw new SvcError('INTERNAL', `setting ${key} is missing from the settings schema`);
      return property.type;
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

/** One ajv error as a sentence that names the key (for additionalProperties ajv names the parent). */
function describe(error: ErrorObject | undefined, label: (key: string) => string): string {
  if (!error) return 'invalid settings';
  if (error.keyword === 'additionalProperties') {
    return `unknown key "${String(error.params.additionalProperty)}"`;
  }
  const key = error.instancePath.replace(/^\//, '');
  if (key === '') return `the settings must be a JSON object (${error.message ?? 'invalid'})`;
  return `${label(key)} ${error.message ?? 'is invalid'}`;
}
