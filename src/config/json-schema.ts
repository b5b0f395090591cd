import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Diagnostic } from '../errors.js';
import { validate as generatedPlanValidator } from './generated/plan-validator.js';
import { relevantErrors } from './schema.js';
import { translateSchemaError } from './schema-errors.js';
import { type ParsedYaml, parseYamlSync } from './yaml.js';

/**
 * A JSON document checked against a JSON Schema with the located diagnostics the desired state
 * gets (file:line:col, the JSON path, what is expected, a hint from the schema), with the
 * schema's validator generated ahead of time (scripts/build-validators.ts). Positions cost a second parse, so the text is parsed with them (JSON is YAML 1.2) only when
 * the document is invalid.
 */
export type JsonSchemaCheck = (file: string, text: string, value: unknown) => Diagnostic[];

export function jsonSchemaCheck(
  schema: Record<string, unknown>,
  validate: ValidateFunction,
): JsonSchemaCheck {
  return (file, text, value) => {
    if (validate(value)) return [];
    const parsed = positionsOf(file, text, value);
    return relevantErrors(validate.errors ?? [])
      .map((error: ErrorObject) => translateSchemaError(error, file, parsed, schema))
      .sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0));
  };
}

/** The check of saved plan files against `schema`, the content of `schemas/plan.schema.json`. */
export function planFileCheck(schema: Record<string, unknown>): JsonSchemaCheck {
  return jsonSchemaCheck(schema, generatedPlanValidator as ValidateFunction);
}

/** The text's positions; a text YAML cannot read (it never should be) is located at its start. */
function positionsOf(file: string, text: string, value: unknown): ParsedYaml {
  const { parsed } = parseYamlSync(file, text);
  return (
    parsed ?? {
      data: value,
      locate: () => ({ line: 1, col: 1 }),
      scalarSource: () => undefined,
    }
  );
}
