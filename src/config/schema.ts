import { readFileSync } from 'node:fs';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Diagnostic } from '../errors.js';
import { translateSchemaError } from './schema-errors.js';
import type { ParsedYaml } from './yaml.js';

/**
 * The JSON Schema in `schemas/svc-gitops.schema.json` is the single description of the format.
 * It ships with the package and is read from there (beside `dist/` or `src/`), never from the
 * user's file system; both values are immutable. It is compiled at the first check, and without
 * checking it against the draft 2020-12 meta-schema (compiling that one cost more than the
 * schema itself at every run): it is a fixed file, checked against the meta-schema by
 * test/config/shipped-schemas.test.ts.
 */
export const DESIRED_STATE_SCHEMA_URL = new URL('../../schemas/svc-gitops.schema.json', import.meta.url);

export const DESIRED_STATE_SCHEMA: Record<string, unknown> = JSON.parse(
  readFileSync(DESIRED_STATE_SCHEMA_URL, 'utf8'),
);

let compiled: ValidateFunction | undefined;
function validateDocument(data: unknown): { valid: boolean; errors: ErrorObject[] } {
  compiled ??= new Ajv2020({
    allErrors: true,
    verbose: true,
    strict: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    validateSchema: false,
  }).compile(DESIRED_STATE_SCHEMA);
  const valid = compiled(data);
  return { valid, errors: compiled.errors ?? [] };
}

/** Validates one file's data against the schema; every problem becomes a located diagnostic. */
export function checkSchema(file: string, parsed: ParsedYaml): Diagnostic[] {
  const { valid, errors } = validateDocument(parsed.data);
  if (valid) return [];
  return relevantErrors(errors)
    .map((error) => translateSchemaError(error, file, parsed, DESIRED_STATE_SCHEMA))
    .sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0));
}

/**
 * Drops the noise of combinators: `if` failures (their `then`/`else` errors say what is wrong) and
 * the `required` errors inside `oneOf`/`anyOf` branches (the combinator error summarises them).
 */
export function relevantErrors(errors: ErrorObject[]): ErrorObject[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    if (error.keyword === 'if') return false;
    if (error.keyword === 'required' && /\/(oneOf|anyOf)\/\d+\/required$/.test(error.schemaPath))
      return false;
    const key = `${error.instancePath}|${error.schemaPath}|${JSON.stringify(error.params)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
