import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every module specifier a directory's files import. */
function imports(dir: string): Array<[string, string]> {
  const root = join(import.meta.dirname, '../../src', dir);
  const files = readdirSync(root).filter((file) => file.endsWith('.ts'));
  return files.flatMap((file) =>
    [...readFileSync(join(root, file), 'utf8').matchAll(/from '([^']+)'/g)].map(
      ([, spec]) => [`${dir}/${file}`, spec as string] as [string, string],
    ),
  );
}

describe('module boundaries of the pure core', () => {
  it('src/canonical imports only its own files and node built-ins', () => {
    for (const [file, spec] of imports('canonical'))
      expect(spec, file).toMatch(/^(\.\/[\w-]+\.js|node:[\w/]+)$/);
  });

  it('src/plan imports only types, errors, the public URL, canonical JSON, its own files and node built-ins', () => {
    for (const [file, spec] of imports('plan')) {
      expect(spec, file).toMatch(
        /^(\.\/[\w-]+\.js|\.\.\/(types|errors|public-url)\.js|\.\.\/(canonical|schedule)\/[\w-]+\.js|node:[\w/]+)$/,
      );
    }
  });

  it('src/schedule imports only types, its own files and node built-ins', () => {
    for (const [file, spec] of imports('schedule'))
      expect(spec, file).toMatch(/^(\.\/[\w-]+\.js|\.\.\/types\.js)$/);
  });

  it('src/config imports only types, errors, its own files, the YAML and schema libraries and node built-ins', () => {
    for (const dir of ['config', 'config/rules']) {
      for (const [file, spec] of imports(dir)) {
        expect(spec, file).toMatch(
          /^(\.\/(rules\/|generated\/)?[\w-]+\.js|\.\.\/(\.\.\/)?(types|errors)\.js|\.\.\/(\.\.\/)?schedule\/[\w-]+\.js|\.\.\/[\w-]+\.js|yaml|ajv(-formats)?(\/[\w/.]+)?|node:[\w/]+)$/,
        );
        // From config/rules, `../x.js` is config's own file; from config, it is another module.
        if (dir === 'config')
          expect(spec, file).not.toMatch(/^\.\.\/(?!types\.js|errors\.js|public-url\.js|schedule\/)/);
      }
    }
  });

  it('src/render imports only types, errors, canonical JSON, its own files and the diff library: never the planner', () => {
    for (const [file, spec] of imports('render')) {
      expect(spec, file).toMatch(
        /^(\.\/[\w-]+\.js|\.\.\/(types|errors)\.js|\.\.\/canonical\/[\w-]+\.js|diff)$/,
      );
    }
  });
});
