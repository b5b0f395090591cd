import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The module table of docs/architecture.md, checked: what each module under src/ may import (another module
 * of ours, named by its path under src/, or a package), resolved from every file's imports.
 * test/plan/boundary.test.ts holds the pure core's finer rules.
 */
const SRC = join(import.meta.dirname, '../src');

function filesUnder(dir: string): string[] {
  return readdirSync(join(SRC, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Static `import … from` / `export … from` and dynamic `import('…')` specifiers of a source text. */
const SPECIFIERS =
  /^(?:import|export)\s[^;]*?\sfrom\s+'([^']+)'|^import\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm;

/** Each import of each file of `module`: another file's path under src/, or a package's name. */
function importsOf(module: string): Array<{ file: string; target: string }> {
  return filesUnder(module).flatMap((file) =>
    [...readFileSync(join(SRC, file), 'utf8').matchAll(SPECIFIERS)].map((match) => {
      const spec = (match[1] ?? match[2] ?? match[3])!;
      const target = spec.startsWith('.') ? relative(SRC, join(SRC, dirname(file), spec)) : spec;
      return { file, target };
    }),
  );
}

/** Imports that leave `module`, other than node built-ins, as `file → target`. */
function outsideImports(module: string): string[] {
  return importsOf(module)
    .filter(({ target }) => !target.startsWith(`${module}/`) && !target.startsWith('node:'))
    .map(({ file, target }) => `${file} → ${target}`);
}

function allowedOnly(module: string, allowed: RegExp): void {
  // The scan itself must see the module's imports, or every rule would pass on nothing.
  expect(importsOf(module).length, module).toBeGreaterThan(5);
  for (const line of outsideImports(module)) expect(line.split(' → ')[1], line).toMatch(allowed);
}

describe('module boundaries (docs/architecture.md)', () => {
  it('the sandbox is an emulator of its own: never the client, the planner or anything else of ours', () => {
    // yaml reads fleet files; ajv checks answers against the published output schemas (output audit).
    allowedOnly('sandbox', /^(yaml|ajv|ajv\/dist\/2020\.js|ajv-formats)$/);
  });

  it('settings: types, errors, the did-you-mean words and the schema library', () => {
    allowedOnly(
      'settings',
      /^(types\.js|errors\.js|config\/did-you-mean\.js|ajv|ajv\/dist\/runtime\/[a-z0-9_-]+\.js)$/,
    );
  });

  it('dashboard: types, errors, the public URL, the settings types, the secret mask and undici', () => {
    allowedOnly(
      'dashboard',
      /^(types\.js|errors\.js|public-url\.js|settings\/types\.js|secrets\/index\.js|undici)$/,
    );
  });

  it('secrets: the one mask is a leaf (node built-ins only)', () => {
    expect(importsOf('secrets').length).toBeGreaterThan(3);
    expect(outsideImports('secrets').filter((line) => !line.includes('→ secrets/'))).toEqual([]);
  });

  it('git: errors and node built-ins only (it runs the git CLI, nothing of ours)', () => {
    allowedOnly('git', /^errors\.js$/);
  });

  it('apply: the dashboard client, the planner, types, errors and undici (page health checks)', () => {
    allowedOnly('apply', /^(types\.js|errors\.js|dashboard\/client\.js|plan\/index\.js|undici)$/);
  });

  it('engine: the index files of the modules it composes, types and errors', () => {
    allowedOnly(
      'engine',
      /^((config|settings|dashboard|plan|apply|render|security|git|notify)\/index\.js|types\.js|errors\.js)$/,
    );
  });

  it('cli: the engine (its index or the library surface), render, types and errors; documented exceptions', () => {
    // The front door is the engine's session: a command reaches no other module's internals.
    // Exceptions, each a channel of the CLI's own rather than a use case: github (the Action's
    // comment, issue, summary and outputs), settings (the variables help and `mcp` name, init's
    // check for a configured dashboard), secrets (the output mask of every stream), sandbox (the
    // `sandbox` command and its published demo credentials), and mcp for `svc-gitops mcp` only.
    const front = /^(index\.js|(engine|render)\/index\.js|types\.js|errors\.js|commander)$/;
    const channels = /^(github|settings|secrets|sandbox)\/index\.js$/;
    expect(importsOf('cli').length).toBeGreaterThan(5);
    for (const line of outsideImports('cli')) {
      const [file, target] = line.split(' → ') as [string, string];
      if (target === 'mcp/index.js' && file === 'cli/commands/mcp.ts') continue;
      expect(front.test(target) || channels.test(target), line).toBe(true);
    }
  });

  it('schedule and canonical are reached through their index files', () => {
    for (const module of ['schedule', 'canonical']) {
      const inside = new RegExp(`^${module}/(?!index\\.js$)`);
      const reaching = filesUnder('.')
        .map((file) => file.split('/')[0] as string)
        .filter((top, index, all) => top !== module && !top.endsWith('.ts') && all.indexOf(top) === index)
        .flatMap((top) => outsideImports(top));
      expect(reaching.length).toBeGreaterThan(5);
      for (const line of reaching) expect(line.split(' → ')[1], line).not.toMatch(inside);
    }
  });

  it('mcp: the engine (its index or the library surface), render, types and errors; documented channels', () => {
    // The tool server's GitOps tools reach the engine only through its session (gitops/sessions.ts):
    // no approval, rollout-state or run logic of their own. Exceptions, each a channel of the
    // server's own rather than a use case: settings (loading them, the variables hints name),
    // secrets (the mask of every answer and log line), and dashboard (the catalogue-driven ability
    // tools pass calls to the server's own client); the MCP SDK and ajv (argument checks).
    const front =
      /^(index\.js|(engine|render)\/index\.js|types\.js|errors\.js|@modelcontextprotocol\/sdk\/.+|ajv\/dist\/2020\.js)$/;
    const channels = /^(settings|secrets|dashboard)\/index\.js$/;
    expect(importsOf('mcp').length).toBeGreaterThan(5);
    for (const line of outsideImports('mcp')) {
      const target = line.split(' → ')[1] as string;
      expect(front.test(target) || channels.test(target), line).toBe(true);
    }
  });

  it('the library surface re-exports index files, types and errors only', () => {
    const text = readFileSync(join(SRC, 'index.ts'), 'utf8');
    const targets = [...text.matchAll(SPECIFIERS)].map((match) => (match[1] ?? match[2] ?? match[3])!);
    expect(targets.length).toBeGreaterThan(5);
    for (const target of targets) expect(target).toMatch(/^\.\/((\w+\/)index|types|errors)\.js$/);
  });

  it('security: types, errors, the public URL and undici', () => {
    allowedOnly('security', /^(types\.js|errors\.js|public-url\.js|undici)$/);
  });

  it('notify: types, the secret mask and undici', () => {
    expect(importsOf('notify').length).toBeGreaterThan(3);
    for (const line of outsideImports('notify'))
      expect(line.split(' → ')[1], line).toMatch(/^(types\.js|secrets\/index\.js|undici)$/);
  });

  it('github: types, errors, undici, the secret mask and render through its index', () => {
    allowedOnly('github', /^(types\.js|errors\.js|undici|render\/index\.js|secrets\/index\.js)$/);
  });

  it('only the process entry points exit, and apply, plan, render, dashboard and config never print', () => {
    // cli/main.ts is the CLI's process; cli/action-main.ts the GitHub action's (action.yml).
    const entryPoints = ['cli/main.ts', 'cli/action-main.ts'];
    for (const file of filesUnder('.')) {
      const text = readFileSync(join(SRC, file), 'utf8');
      if (!entryPoints.includes(file)) expect(text, file).not.toMatch(/process\.exit\(/);
      if (/^(apply|plan|render|dashboard|config|canonical)\//.test(file))
        expect(text, file).not.toMatch(/console\.|process\.(stdout|stderr)/);
    }
  });
});
