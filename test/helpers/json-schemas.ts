import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';

/** The published schemas of the `--format json` documents (docs/json-output.md), loaded together. */
const ROOT = join(import.meta.dirname, '..', '..');
export const JSON_OUTPUT_SCHEMAS = [
  'plan',
  'validate-report',
  'apply-report',
  'apply-dry-run',
  'error',
  'command-report',
] as const;
export type JsonOutputSchema = (typeof JSON_OUTPUT_SCHEMAS)[number];

const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats.default(ajv);
for (const name of JSON_OUTPUT_SCHEMAS)
  ajv.addSchema(JSON.parse(readFileSync(join(ROOT, `schemas/${name}.schema.json`), 'utf8')));

/** Parses a command's stdout and expects it to fit the named schema; returns the document. */
export function expectFitsSchema(name: JsonOutputSchema, stdout: string): Record<string, unknown> {
  const document = JSON.parse(stdout) as Record<string, unknown>;
  const validate = ajv.getSchema(`https://svc-gitops.dev/schemas/${name}.schema.json`);
  if (!validate) throw new Error(`no schema ${name}`);
  expect(validate(document), JSON.stringify(validate.errors, null, 2)).toBe(true);
  return document;
}
