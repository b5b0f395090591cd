import { readFileSync } from 'node:fs';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Diagnostic } from '../errors.js';
import { validate as generatedValidator } from './generated/desired-state-validator.js';
import type { Pacer } from './pace.js';
import { translateSchemaError } from './schema-errors.js';
import type { ParsedYaml } from './yaml.js';

/**
 * The JSON Schema in `schemas/svc-gitops.schema.json` is the single description of the format.
 * It ships with the package and is read from there (beside `dist/` or `src/`), never from the
 * user's file system; both values are immutable. Its validator is generated ahead of time
 * (scripts/build-validators.ts, kept current by test/config/generated-validators.test.ts), so no
 * run compiles it; the schema itself is checked against the draft 2020-12 meta-schema by
 * test/config/shipped-schemas.test.ts.
 */
export const DESIRED_STATE_SCHEMA_URL = new URL('../../schemas/svc-gitops.schema.json', import.meta.url);

export const DESIRED_STATE_SCHEMA: Record<string, unknown> = JSON.parse(
  readFileSync(DESIRED_STATE_SCHEMA_URL, 'utf8'),
);

const validateDesired = generatedValidator as ValidateFunction;

function validateDocument(data: unknown): { valid: boolean; errors: ErrorObject[] } {
  const valid = validateDesired(data);
  return { valid, errors: validateDesired.errors ?? [] };
}

/**
 * Validates one file's data against the schema; every problem becomes a located diagnostic. A
 * broken file may have 100,000 problems: `pacer` gets a step between them.
 */
export async function checkSchema(file: string, parsed: ParsedYaml, pacer: Pacer): Promise<Diagnostic[]> {
  const { valid, errors } = validateDocument(parsed.data);
  if (valid) return [];
  const out: Diagnostic[] = [];
  for (const error of relevantErrors(errors)) {
    out.push(translateSchemaError(error, file, parsed, DESIRED_STATE_SCHEMA));
    if (out.length % 256 === 0) await pacer.step();
  }
  return out.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0));
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
