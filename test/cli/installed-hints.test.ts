import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/**
 * What a person who installed the package is told to do works where they are: no message sends
 * them to a path inside the package (`examples/…`), which their working directory does not have.
 * The command or the text itself is printed instead.
 */
const ROOT = join(import.meta.dirname, '..', '..');

describe('hints for an installed svc-gitops', () => {
  it('no desired state: the hint is a command, and that command writes one', async () => {
    const dir = tempDirForFile('svc-gitops-hints-');
    const plan = await cli(['validate'], { cwd: dir, env: { HOME: dir } });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('hint: `svc-gitops init` writes one');
    expect(plan.stderr).not.toContain('examples/');
    expect((await cli(['init'], { cwd: dir, env: { HOME: dir } })).code).toBe(0);
    expect((await cli(['validate'], { cwd: dir, env: { HOME: dir } })).code).toBe(0);
  });

  it('a bad fleet file: the hint names `sandbox --help`, which prints the fleet format itself', async () => {
    const dir = tempDirForFile('svc-gitops-hints-');
    writeFileSync(join(dir, 'fleet.yaml'), 'sites:\n  - { url: https://a.test/, colour: blue }\n');
    const bad = await cli(['sandbox', '--fleet', 'fleet.yaml'], { cwd: dir, env: { HOME: dir } });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('hint: `svc-gitops sandbox --help` shows the fleet file format');
    const help = await cli(['sandbox', '--help']);
    expect(help.stdout).not.toContain('examples/');
    const readme = readFileSync(join(ROOT, 'examples/sandbox/README.md'), 'utf8');
    const block = /## Fleet file format\n\n```yaml\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(block.split('\n').length).toBeGreaterThan(20);
    for (const line of block.trimEnd().split('\n')) expect(help.stdout).toContain(`  ${line}\n`);
    expect(help.stdout).toContain('Control routes (loopback only, no auth):\n  GET /__sandbox/stats');
  });

  it('no message text in the CLI names a path inside the package', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? files(join(dir, entry.name))
          : entry.name.endsWith('.ts')
            ? [join(dir, entry.name)]
            : [],
      );
    const offenders = files(join(ROOT, 'src')).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter(
          (line) => /['`"][^'`"]*examples\//.test(line) && !/packageFile\(|^\s*(\*|\/\/|\/\*)/.test(line),
        )
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });
});
