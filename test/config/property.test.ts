import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadText } from './helpers.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const EXAMPLES = [
  'examples/minimal.yaml',
  'examples/agency.yaml',
  'examples/multi-file/00-platform.yaml',
].map((f) => fs.readFileSync(path.join(ROOT, f), 'utf8'));

/** The contract: a desired state with no errors, or no desired state and at least one error. */
async function holdsContract(text: string): Promise<boolean> {
  const result = await loadText(text);
  const errorCount = result.diagnostics.filter((d) => d.severity === 'error').length;
  if (result.desired) expect(errorCount).toBe(0);
  else expect(errorCount).toBeGreaterThan(0);
  for (const d of result.diagnostics) {
    expect(typeof d.message).toBe('string');
    expect(d.message.length).toBeGreaterThan(0);
  }
  return result.desired !== undefined;
}

/** Edits that keep a file "almost valid", which is where the normaliser and rules get exercised. */
const mutation = fc.oneof(
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 8 }) }),
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.constantFrom(
      ':',
      '-',
      ' ',
      '\n',
      '\t',
      '[',
      ']',
      '{',
      '}',
      '*a',
      '&a ',
      '!!',
      '"',
      "'",
      '#',
      'all',
      '1',
      'group:x',
      '~',
      '%',
      '\0',
    ),
  }),
  fc.record({ op: fc.constant('swap-lines' as const), at: fc.nat(), other: fc.nat() }),
  fc.record({ op: fc.constant('duplicate-line' as const), at: fc.nat() }),
);

function mutate(text: string, edits: Array<Record<string, unknown>>): string {
  let out = text;
  for (const edit of edits) {
    const at = (edit.at as number) % Math.max(1, out.length);
    if (edit.op === 'delete') out = out.slice(0, at) + out.slice(at + (edit.length as number));
    else if (edit.op === 'insert') out = out.slice(0, at) + (edit.text as string) + out.slice(at);
    else {
      const lines = out.split('\n');
      const i = (edit.at as number) % lines.length;
      if (edit.op === 'duplicate-line') lines.splice(i, 0, lines[i]!);
      else {
        const j = (edit.other as number) % lines.length;
        [lines[i], lines[j]] = [lines[j]!, lines[i]!];
      }
      out = lines.join('\n');
    }
  }
  return out;
}

describe('property: any input ends in diagnostics or a valid state, never an exception', () => {
  it('holds for arbitrary strings', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (text) => {
        await holdsContract(text);
      }),
      { numRuns: 150 },
    );
  });

  it('holds for arbitrary YAML-ish token soup', async () => {
    const token = fc.constantFrom(
      'version',
      ': ',
      '1',
      '\n',
      '  ',
      '- ',
      'sites',
      'all',
      '[',
      ']',
      '{',
      '}',
      ',',
      'groups',
      'x',
      'group:x',
      'include',
      'exclude',
      'holds',
      'plugin',
      'a/a.php',
      'pin',
      "'9.4'",
      '&a',
      '*a',
      '? ',
      'max',
      'patch',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(token, { maxLength: 60 }), async (tokens) => {
        await holdsContract(tokens.join(''));
      }),
      { numRuns: 150 },
    );
  });

  it('holds for mutated examples, which still validate now and then', async () => {
    const outcomes = { valid: 0, invalid: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...EXAMPLES),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        async (text, edits) => {
          const valid = await holdsContract(mutate(text, edits as Array<Record<string, unknown>>));
          outcomes[valid ? 'valid' : 'invalid']++;
        },
      ),
      { numRuns: 200, seed: 4 },
    );
    // Both paths were exercised: the rules and normaliser (valid), and the diagnostics (invalid).
    expect(outcomes.valid).toBeGreaterThan(0);
    expect(outcomes.invalid).toBeGreaterThan(0);
  });

  it('holds for arbitrary JSON values written as YAML', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => {
        await holdsContract(
          `version: 1\nsites: ${JSON.stringify(value)}\nholds: ${JSON.stringify([value])}\n`,
        );
      }),
      { numRuns: 100 },
    );
  });
});
