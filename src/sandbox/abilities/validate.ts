/** The subset of JSON Schema the shipped abilities use, validated as WordPress core does. */
export interface Schema {
  type?: string | string[];
  enum?: readonly unknown[];
  minimum?: number;
  maximum?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: readonly string[];
  additionalProperties?: boolean;
  default?: unknown;
  description?: string;
  minItems?: number;
  /** Output schemas only: checked by the output audit (WordPress checks `oneOf` too, not `uri`). */
  oneOf?: readonly Schema[];
  format?: string;
  const?: unknown;
}

export type Validation = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * Validates (and coerces query strings: numeric strings pass as integers, `1`/`0`/`true`/`false`
 * as booleans) like `rest_validate_value_from_schema`, with its messages. Defaults are not
 * injected: abilities apply their own, so an explicit `[]` stays `[]`.
 */
export function validate(schema: Schema, value: unknown, param: string): Validation {
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  let coerced: unknown = value;
  if (types.length > 0) {
    const match = types.map((type) => coerce(type, value)).find((c) => c !== NO_MATCH);
    if (match === undefined) return fail(`${param} is not of type ${types.join(',')}.`);
    coerced = match;
  }
  if (schema.enum && !schema.enum.includes(coerced))
    return fail(`${param} is not one of ${schema.enum.join(', ')}.`);
  if (typeof coerced === 'number') {
    const { minimum: min, maximum: max } = schema;
    if (min !== undefined && max !== undefined && (coerced < min || coerced > max)) {
      return fail(`${param} must be between ${min} (inclusive) and ${max} (inclusive)`);
    }
    if (min !== undefined && coerced < min) return fail(`${param} must be greater than or equal to ${min}`);
    if (max !== undefined && coerced > max) return fail(`${param} must be less than or equal to ${max}`);
  }
  if (Array.isArray(coerced)) {
    if (schema.minItems !== undefined && coerced.length < schema.minItems) {
      return fail(`${param} must contain at least ${schema.minItems} items.`);
    }
    if (schema.items) {
      const out: unknown[] = [];
      for (const [index, item] of coerced.entries()) {
        const result = validate(schema.items, item, `${param}[${index}]`);
        if (!result.ok) return result;
        out.push(result.value);
      }
      coerced = out;
    }
  }
  if (isPlainObject(coerced) && (schema.properties || schema.required))
    return validateObject(schema, coerced, param);
  return { ok: true, value: coerced };
}

function validateObject(schema: Schema, value: Record<string, unknown>, param: string): Validation {
  const properties = schema.properties ?? {};
  for (const name of schema.required ?? []) {
    if (!(name in value)) return fail(`${name} is a required property of ${param}.`);
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const property = properties[key];
    if (!property) {
      if (schema.additionalProperties === false) return fail(`${key} is not a valid property of Object.`);
      out[key] = item;
      continue;
    }
    const result = validate(property, item, `${param}[${key}]`);
    if (!result.ok) return result;
    out[key] = result.value;
  }
  return { ok: true, value: out };
}

const NO_MATCH = Symbol('no match');

function coerce(type: string, value: unknown): unknown {
  switch (type) {
    case 'integer':
      if (typeof value === 'number' && Number.isInteger(value)) return value;
      if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value);
      return NO_MATCH;
    case 'number':
      if (typeof value === 'number') return value;
      if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
        return Number(value);
      return NO_MATCH;
    case 'string':
      return typeof value === 'string' ? value : NO_MATCH;
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === '1' || value === 1) return true;
      if (value === 'false' || value === '0' || value === 0 || value === '') return false;
      return NO_MATCH;
    case 'array':
      return Array.isArray(value) ? value : NO_MATCH;
    case 'object':
      // An empty JSON array stands for an empty object, as PHP decodes it.
      if (Array.isArray(value) && value.length === 0) return {};
      return isPlainObject(value) ? value : NO_MATCH;
    case 'null':
      return value === null ? null : NO_MATCH;
    default:
      return value;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(message: string): Validation {
  return { ok: false, message };
}
