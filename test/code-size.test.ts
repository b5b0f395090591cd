import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Small files with one purpose: in the front door (engine/) and the front ends (cli/, mcp/), no
 * file over 300 lines and no function over 80, so each use case and each front end's part of it
 * stays readable at once.
 */
const SRC = join(import.meta.dirname, '../src');
const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 80;

/**
 * Files and functions over the limit that other work in flight is reshaping, named here so that
 * nothing else joins them: none today.
 */
const NOT_YET_SPLIT = new Set<string>([]);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Each function, method, arrow function and function expression of a file longer than the limit. */
function longFunctions(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > MAX_FUNCTION_LINES) {
        const name = node.name && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)';
        if (!NOT_YET_SPLIT.has(`${relative(SRC, file)} ${name}`))
          found.push(`${relative(SRC, file)}:${start + 1} ${name}: ${lines} lines`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('code size in engine/, cli/ and mcp/', () => {
  const files = ['engine', 'cli', 'mcp'].flatMap((dir) => filesUnder(join(SRC, dir)));

  it(`no file over ${MAX_FILE_LINES} lines`, () => {
    const long = files.flatMap((file) => {
      const lines = readFileSync(file, 'utf8').split('\n').length - 1;
      return lines > MAX_FILE_LINES && !NOT_YET_SPLIT.has(relative(SRC, file))
        ? [`${relative(SRC, file)}: ${lines} lines`]
        : [];
    });
    expect(long).toEqual([]);
  });

  it(`no function over ${MAX_FUNCTION_LINES} lines`, () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap(longFunctions)).toEqual([]);
  });

  it('each function not yet split is still there under its name', () => {
    const texts = new Map(files.map((file) => [relative(SRC, file), readFileSync(file, 'utf8')]));
    for (const entry of NOT_YET_SPLIT) {
      const [file, name] = entry.split(' ') as [string, string | undefined];
      expect(texts.get(file), entry).toContain(name === undefined ? '' : `function ${name}(`);
    }
  });
});
