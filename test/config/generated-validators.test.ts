import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TARGETS, validatorModule } from '../../scripts/build-validators.js';

const ROOT = join(import.meta.dirname, '../..');

describe('generated schema validators', () => {
  it.each(TARGETS.map((target) => [target.out, target] as const))(
    '%s is generated from the current schema (npm run build:validators)',
    (out, target) => {
      // Compared as one boolean: a diff of 90 KB of generated code helps nobody.
      expect(readFileSync(join(ROOT, out), 'utf8') === validatorModule(target)).toBe(true);
    },
  );
});
