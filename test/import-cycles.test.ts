import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No import cycles anywhere in src/: every relative import (type-only ones too, since a cycle of
 * types still ties the files' meanings together) is an edge, and a depth-first walk of the graph
 * must find no edge back to a file still on its path.
 */
const SRC = join(import.meta.dirname, '../src');

function sourceFiles(dir = ''): string[] {
  return readdirSync(join(SRC, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Static `import … from` / `export … from` and dynamic `import('…')` specifiers of a source text. */
const SPECIFIERS =
  /^(?:import|export)\s[^;]*?\sfrom\s+'([^']+)'|^import\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm;

/** The files under src/ that `file` imports (by path under src/, `.ts`). */
function importsOf(file: string): string[] {
  return [...readFileSync(join(SRC, file), 'utf8').matchAll(SPECIFIERS)]
    .map((match) => (match[1] ?? match[2] ?? match[3])!)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => relative(SRC, join(SRC, dirname(file), spec)).replace(/\.js$/, '.ts'))
    .filter((target) => existsSync(join(SRC, target)));
}

/** Every cycle the walk meets, each as the files around it (`a → b → a`). */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next].join(' → '));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

describe('import cycles', () => {
  it('finds a cycle when there is one (the walk itself)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
    ]);
    expect(findCycles(graph)).toEqual(['a.ts → b.ts → c.ts → a.ts']);
    expect(
      findCycles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('src/ has none', () => {
    const files = sourceFiles();
    const graph = new Map(files.map((file) => [file, importsOf(file)]));
    // The scan must see the imports, or it would pass on nothing.
    expect([...graph.values()].flat().length).toBeGreaterThan(files.length);
    expect(findCycles(graph)).toEqual([]);
  });
});
