import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { demoFleet } from '../helpers/sandbox.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/**
 * The package as a user gets it: `npm pack` (whose `prepack` builds), then `npm install -g` of the
 * tarball into an empty prefix, then the installed `svc-gitops` run from an empty directory and
 * against the sandbox. The pack runs in a copy of the sources, so the worktree's own dist/ is never
 * rebuilt under other test files; the install takes its dependencies from npm's cache
 * (`--prefer-offline`: `npm ci` has filled it), reaching the registry only for one that is missing.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  files: string[];
};
const run = promisify(execFile);

let work: string;
let stage: string;
let bin: string;
let installed: string;
let sandbox: RunningSandbox;

beforeAll(async () => {
  work = tempDirForFile('svc-gitops-pack-');
  stage = join(work, 'stage');
  mkdirSync(stage);
  for (const entry of [
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'README.md',
    'LICENSE',
    'scripts/build-cli.ts',
    'scripts/bundle-options.ts',
    ...PACKAGE.files.filter((f) => f !== 'dist' && !f.startsWith('!')),
  ])
    cpSync(join(ROOT, entry), join(stage, entry), { recursive: true });
  cpSync(join(ROOT, 'src'), join(stage, 'src'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(stage, 'node_modules'), 'dir');
  const npmEnv = {
    ...process.env,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
  const packed = await run('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: stage,
    env: npmEnv,
  });
  const [{ filename }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as [
    { filename: string },
  ];
  const prefix = join(work, 'prefix');
  await run('npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', join(work, filename)], {
    cwd: work,
    env: npmEnv,
  });
  bin = join(prefix, 'bin', 'svc-gitops');
  installed = join(prefix, 'lib', 'node_modules', PACKAGE.name);
  sandbox = await startSandbox({
    fleet: demoFleet(),
  });
}, 180_000);
afterAll(async () => {
  await sandbox?.close();
});

/** The installed CLI in `cwd`, with only PATH and a HOME of its own (no settings file, no SVC_*). */
async function svcGitops(cwd: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(bin, args, {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: join(work, 'home'), NO_COLOR: '1', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function emptyDir(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir);
  return dir;
}

describe('npm pack → npm install -g → svc-gitops', () => {
  it('builds an executable entry point and installs a svc-gitops that prints the package version', async () => {
    // The build itself marks it executable (npm does so on install, `npm run build` alone did not).
    expect(statSync(join(stage, 'dist/bin/svc-gitops.js')).mode & 0o111).not.toBe(0);
    expect(readFileSync(join(stage, 'dist/bin/svc-gitops.js'), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
    const version = await svcGitops(emptyDir('version'), ['--version']);
    expect(version).toEqual({ code: 0, stdout: `${PACKAGE.version}\n`, stderr: '' });
  });

  it('runs the bundle, which loads no module of the package but its own chunks', async () => {
    expect(realpathSync(bin)).toBe(join(installed, 'dist/bin/svc-gitops.js'));
    const text = readFileSync(join(installed, 'dist/bin/svc-gitops.js'), 'utf8');
    const imports = [...text.matchAll(/^import\b[^;]*?\bfrom\s*"([^"]+)";$/gms)].map(
      (match) => match[1] ?? '',
    );
    expect(imports.length).toBeGreaterThan(0);
    for (const specifier of imports)
      expect(specifier, specifier).toMatch(/^(node:[a-z_/]+|\.\/chunk-[\w-]+\.js)$/);
  });

  it('init copies the workflow templates and mcp loads its own chunk, from the installed bundle', async () => {
    const dir = emptyDir('init');
    const init = await svcGitops(dir, ['init']);
    expect(init.code, init.stderr).toBe(0);
    expect(readFileSync(join(dir, '.github/workflows/svc-gitops-plan.yml'), 'utf8')).toBe(
      readFileSync(join(installed, 'examples/github/svc-gitops-plan.yml'), 'utf8'),
    );
    // stdin at its end: the server starts, says it is ready and stops.
    const started = run(bin, ['mcp'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: join(work, 'home') },
    });
    started.child.stdin?.end();
    const mcp = await started;
    expect(mcp.stderr).toContain('ready on stdio');
  });

  it('ships what the CLI reads at run time and nothing of the tests', async () => {
    for (const file of [
      'schemas/svc-gitops.schema.json',
      'schemas/settings.schema.json',
      'examples/minimal.yaml',
      'LICENSE',
      'CHANGELOG.md',
      'README.md',
    ])
      expect(statSync(join(installed, file)).isFile(), file).toBe(true);
    expect(() => statSync(join(installed, 'test'))).toThrow();
    expect(() => statSync(join(installed, 'src'))).toThrow();
  });

  it('plan in an empty directory says what is missing, without a stack trace', async () => {
    const result = await svcGitops(emptyDir('empty'), ['plan']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error [CONFIG_INVALID]: no svc-gitops.yaml or svc-gitops/');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('validates and plans the shipped example against the sandbox', async () => {
    const dir = emptyDir('plan');
    writeFileSync(join(dir, 'svc-gitops.yaml'), readFileSync(join(installed, 'examples/minimal.yaml')));
    const env = { ...sandbox.env(), SVC_ALLOW_HTTP: 'true', SVC_RATE_LIMIT: '0' };
    const valid = await svcGitops(dir, ['validate'], env);
    expect(valid.code, valid.stderr).toBe(0);
    expect(valid.stdout).toContain('svc-gitops.yaml: valid');
    const plan = await svcGitops(dir, ['plan', '--detailed-exitcode', '--out', 'plan.json'], env);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toMatch(/\d+ to ignore, \d+ to unignore, \d+ to update on \d+ sites/);
    expect(JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')).format_version).toBe(3);
  });

  it("the README's first run, followed literally in an empty repository, needs no step it does not state", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## First run against your dashboard'));
    const block = /```sh\n([\s\S]*?)\n```/.exec(section)?.[1] ?? '';
    const lines = block.split('\n').map((line) => line.replace(/\s+# .*$/, ''));
    expect(lines[1]).toMatch(/^export SVC_URL=\S+ SVC_USER=\S+ SVC_APP_PASSWORD=/);
    // The one line a reader fills in with their dashboard: here the sandbox's.
    const dashboard = Object.entries({ ...sandbox.env(), SVC_ALLOW_HTTP: 'true' })
      .map(([name, value]) => `${name}='${value}'`)
      .join(' ');
    lines[1] = `export ${dashboard}`;
    const repo = emptyDir('first-run');
    await run('git', ['init', '-q'], { cwd: repo });
    const script = ['set -e', ...lines].join('\n');
    const walk = await run('bash', ['-c', script], {
      cwd: repo,
      env: {
        PATH: `${join(work, 'prefix', 'bin')}:${process.env.PATH ?? ''}`,
        HOME: join(work, 'home'),
        NO_COLOR: '1',
      },
    });
    expect(walk.stdout).toContain(`${PACKAGE.version}\n`);
    expect(walk.stdout).toMatch(/Apply complete: /);
    // What init said it wrote is there, and git ignores apply's records.
    expect(readFileSync(join(repo, '.gitignore'), 'utf8')).toContain('/.svc-gitops/');
    const status = await run('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: repo });
    expect(status.stdout).not.toContain('.svc-gitops/');
    expect(status.stdout).toContain('svc-gitops.yaml');
  });

  it('npm publish --dry-run is clean: the metadata a registry shows, and no maps, sources or tests', async () => {
    const published = await run('npm', ['publish', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: stage,
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    const warnings = published.stderr
      .split('\n')
      .filter((line) => /npm (warn|error)/i.test(line) && !/requires you to be logged in/.test(line));
    expect(warnings).toEqual([]);
    // npm 11 keys the report by package name; older npm printed the report itself.
    type Report = { files?: Array<{ path: string }> };
    const document = JSON.parse(published.stdout.slice(published.stdout.indexOf('{'))) as Report &
      Record<string, Report>;
    const files = document.files ?? document[PACKAGE.name]?.files ?? [];
    const paths = files.map((file) => file.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'dist/bin/svc-gitops.js',
        'dist/index.js',
        'schemas/svc-gitops.schema.json',
        'LICENSE',
      ]),
    );
    expect(paths.filter((path) => path.endsWith('.map') || /^(src|test|scripts)\//.test(path))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(stage, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      name: 'svc-gitops',
      engines: { node: expect.stringMatching(/^>=20/) },
      repository: {
        type: 'git',
        url: expect.stringMatching(/^git\+https:\/\/github\.com\/[\w-]+\/svc-gitops\.git$/),
      },
      bugs: { url: expect.stringMatching(/\/issues$/) },
      homepage: expect.stringMatching(/^https:\/\//),
      publishConfig: { access: 'public', provenance: true },
    });
  });
});
