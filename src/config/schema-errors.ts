import type { ErrorObject } from 'ajv';
import type { Diagnostic } from '../errors.js';
import { didYouMean } from './did-you-mean.js';
import type { Segment } from './model.js';
import { jsonPointer } from './pointer.js';
import {
  describedProperty,
  nearestDocs,
  patternHint,
  type SchemaNode,
  sameSchemaNode,
  schemaNodes,
} from './schema-docs.js';
import type { ParsedYaml } from './yaml.js';

/**
 * Turns one ajv error into a diagnostic a person can act on: the offending key or value, what is
 * expected, and a hint taken from the schema's own descriptions (so the schema stays the single
 * description of the format) or a "did you mean" for misspelled keys and values.
 */
export function translateSchemaError(
  error: ErrorObject,
  file: string,
  parsed: ParsedYaml,
  root: Record<string, unknown>,
): Diagnostic {
  const path = segmentsOf(error.instancePath);
  const docs = nearestDocs(root, error.schemaPath, error.parentSchema);
  const schema = { ...docs, ...((error.parentSchema ?? {}) as SchemaNode) };
  const found = describeValue(error.data);
  const where = (p: Segment[], key = false) => ({ file, ...parsed.locate(p, key), path: jsonPointer(p) });
  const make = (message: string, hint: string | undefined, p: Segment[] = path, key = false): Diagnostic => {
    const d: Diagnostic = { severity: 'error', rule: 'schema', message, ...where(p, key) };
    if (hint) d.hint = hint;
    return d;
  };
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const allowed = Object.keys(schema.properties ?? {});
      const hint = didYouMean(key, allowed) ?? `allowed keys here: ${allowed.join(', ')}`;
      return make(`unknown key \`${key}\`${context(path)}`, hint, [...path, key], true);
    }
    case 'required': {
      const key = String(params.missingProperty);
      const described = describedProperty(root, schema.properties?.[key]);
      return make(
        `missing required key \`${key}\`${context(path)}`,
        described ? `${key}: ${described}` : undefined,
      );
    }
    case 'oneOf':
    case 'anyOf':
      return make(combinatorMessage(error.keyword, schema, error.data), schema.description);
    case 'type': {
      const expected = String(params.type);
      const source = parsed.scalarSource(path);
      // A selection is a list or a mapping: its `else` only says "mapping", which misleads
      // someone who wrote `sites: all`, so the `if` branch's type is named too.
      const alternative = ifBranchType(
        schemaNodes(root, error.schemaPath, error.parentSchema),
        error.parentSchema,
      );
      const scalar = typeof error.data === 'string' || typeof error.data === 'number';
      if (alternative !== undefined) {
        const hint =
          alternative === 'array' && scalar
            ? `write it as a list: [${source ?? String(error.data)}]`
            : (schema.description ?? docs.description);
        return make(
          `${label(path)} must be ${article(alternative)} or ${article(expected)}, found ${found}`,
          hint,
        );
      }
      const entry = expected === 'array' ? firstKeyOfMappingEntries(root, error) : undefined;
      const hint =
        expected === 'string' && typeof error.data === 'number' && source
          ? `quote it: '${source}' (unquoted, YAML reads it as a number)`
          : entry !== undefined
            ? `start each entry with \`- \`: \`- ${entry}: …\` (a list of mappings, not one mapping)`
            : schema.description;
      return make(`${label(path)} must be ${article(expected)}, found ${found}`, hint ?? docs.description);
    }
    case 'const': {
      // `version: "1"`: the value is right but quoted, so YAML reads it as text.
      const quoted = typeof error.data === 'string' && error.data === String(params.allowedValue);
      return make(
        `${label(path)} must be ${JSON.stringify(params.allowedValue)}, found ${found}`,
        quoted ? `write it without quotes: ${String(params.allowedValue)}` : schema.description,
      );
    }
    case 'enum': {
      const allowed = ((params.allowedValues as unknown[]) ?? []).map(String);
      const suggestion = typeof error.data === 'string' ? didYouMean(error.data, allowed) : undefined;
      return make(
        `${label(path)} must be one of ${allowed.join(', ')}; found ${found}`,
        suggestion ?? schema.description,
      );
    }
    case 'pattern':
      return make(
        `${found} is not a valid ${docs.title ?? 'value'}`,
        patternHint(error.data, docs.title) ?? docs.description,
      );
    case 'propertyNames':
      return make(`${found} is not a valid name${context(path)}`, schema.description);
    case 'minItems':
      return make(`${label(path)} must not be empty`, schema.description);
    case 'uniqueItems':
      return make(`${label(path)} lists the same value twice`, 'remove the repeated entry');
    case 'minimum':
      return make(
        `${label(path)} must be at least ${String(params.limit)}, found ${found}`,
        schema.description,
      );
    default:
      return make(`${label(path)} ${error.message ?? 'is not valid'}`, schema.description);
  }
}

export function segmentsOf(instancePath: string): Segment[] {
  if (instancePath === '') return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^(0|[1-9][0-9]*)$/.test(s) ? Number(s) : s));
}

/**
 * A mapping written where a list of mappings belongs (the `- ` of the first entry forgotten):
 * its first key, to show how the entry starts. Only for lists whose items are mappings.
 */
function firstKeyOfMappingEntries(root: Record<string, unknown>, error: ErrorObject): string | undefined {
  const data = error.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const items = (error.parentSchema as { items?: { $ref?: string; type?: unknown } } | undefined)?.items;
  const defs = root.$defs as Record<string, { type?: unknown }> | undefined;
  const itemType = items?.$ref ? defs?.[items.$ref.replace('#/$defs/', '')]?.type : items?.type;
  return itemType === 'object' ? Object.keys(data)[0] : undefined;
}

/** The type the `if` beside a failed `else` accepts (`if: {type: array}`), if that is the shape. */
function ifBranchType(nodes: unknown[], elseSchema: unknown): string | undefined {
  for (const node of nodes) {
    if (typeof node !== 'object' || node === null) continue;
    const n = node as { if?: { type?: unknown }; else?: unknown };
    if (sameSchemaNode(n.else, elseSchema) && typeof n.if?.type === 'string') return n.if.type;
  }
  return undefined;
}

function combinatorMessage(keyword: 'oneOf' | 'anyOf', schema: SchemaNode, data: unknown): string {
  const keys = (schema[keyword] ?? []).flatMap((branch) => branch.required ?? []);
  const present = keys.filter((k) => typeof data === 'object' && data !== null && k in data);
  if (keyword === 'oneOf' && present.length > 1) {
    return `set only one of ${keys.join(', ')}; found ${present.join(' and ')}`;
  }
  return keyword === 'oneOf'
    ? `set exactly one of ${keys.join(', ')}`
    : `set at least one of ${keys.join(', ')}`;
}

function label(path: Segment[]): string {
  const last = path[path.length - 1];
  if (last === undefined) return 'the document';
  return typeof last === 'string'
    ? `\`${last}\``
    : `item ${last + 1} of \`${String(path[path.length - 2] ?? '')}\``;
}

function context(path: Segment[]): string {
  return path.length === 0 ? ' at the top level' : ` in \`${jsonPointer(path)}\``;
}

function article(type: string): string {
  if (type === 'object') return 'a mapping (key: value)';
  if (type === 'array') return 'a list';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'nothing (an empty value)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
