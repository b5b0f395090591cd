import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';

/**
 * The schemas the package ships are compiled at run time without a check against the draft
 * 2020-12 meta-schema (it cost more than compiling them): this is that check, for every file.
 */
const SCHEMAS = join(import.meta.dirname, '../../schemas');
const files = readdirSync(SCHEMAS).filter((name) => name.endsWith('.json'));

describe('the shipped JSON Schemas', () => {
  it('are all found', () => {
    expect(files).toEqual(
      expect.arrayContaining(['svc-gitops.schema.json', 'settings.schema.json', 'plan.schema.json']),
    );
  });

  for (const name of files) {
    it(`${name} is a valid draft 2020-12 schema that compiles in strict mode`, () => {
      const schema = JSON.parse(readFileSync(join(SCHEMAS, name), 'utf8')) as Record<string, unknown>;
      const ajv = new Ajv2020({
        strict: true,
        strictTypes: false,
        strictRequired: false,
        strictTuples: false,
      });
      addFormats.default(ajv);
      expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
      // A shipped schema may refer to another by its $id (apply-report → plan's action).
      for (const other of files.filter((file) => file !== name))
        ajv.addSchema(JSON.parse(readFileSync(join(SCHEMAS, other), 'utf8')) as Record<string, unknown>);
      expect(() => ajv.compile(schema)).not.toThrow();
    });
  }
});
