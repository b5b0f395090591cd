import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Diagnostic } from '../errors.js';
import { relevantErrors } from './schema.js';
import { translateSchemaError } from './schema-errors.js';
import { type ParsedYaml, parseYaml } from './yaml.js';

/**
 * A JSON document checked against a JSON Schema with the located diagnostics the desired state
 * gets (file:line:col, the JSON path, what is expected, a hint from the schema). The schema is
 * compiled once, at the first check: a run that checks no such document does not pay for it.
 * Positions cost a second parse, so the text is parsed with them (JSON is YAML 1.2) only when
 * the document is invalid.
 */
export type JsonSchemaCheck = (file: string, text: string, value: unknown) => Diagnostic[];

export function compileJsonSchemaCheck(schema: Record<string, unknown>): JsonSchemaCheck {
  let compiled: ValidateFunction | undefined;
  const validator = (): ValidateFunction => {
    if (compiled) return compiled;
    // The schemas are the package's own fixed files, checked against the meta-schema by
    // test/config/shipped-schemas.test.ts: checking them again at every run only costs time.
    const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, validateSchema: false });
    addFormats.default(ajv);
    compiled = ajv.compile(schema);
    return compiled;
  };
  return (file, text, value) => {
    const validate = validator();
    if (validate(value)) return [];
    const parsed = positionsOf(file, text, value);
    return relevantErrors(validate.errors ?? [])
      .map((error: ErrorObject) => translateSchemaError(error, file, parsed, schema))
      .sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0));
  };
}

/** The text's positions; a text YAML cannot read (it never should be) is located at its start. */
function positionsOf(file: string, text: string, value: unknown): ParsedYaml {
  const { parsed } = parseYaml(file, text);
  return (
    parsed ?? {
      data: value,
      locate: () => ({ line: 1, col: 1 }),
      scalarSource: () => undefined,
    }
  );
}
