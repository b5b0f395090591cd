import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { demoFleet, fastClientEnv, sandboxPer } from '../helpers/sandbox.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/**
 * Every example of the README is run: the `svc-gitops` walkthroughs here, against the sandbox, as
 * written; the others by the test each is mapped to below (which must exist and run that very
 * command). A new code block that no entry claims fails the first test.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

interface Block {
  lang: string;
  text: string;
}

/** Fenced blocks, and the indented (4-space) blocks that hold commands. */
function blocks(): Block[] {
  const fenced = [...README.matchAll(/^```(\w*)\n([\s\S]*?)\n```$/gm)].map((m) => ({
    lang: m[1] ?? '',
    text: m[2] ?? '',
  }));
  const withoutFenced = README.replace(/^```\w*\n[\s\S]*?\n```$/gm, '');
  const indented = [...withoutFenced.matchAll(/(?:^|\n)\n((?: {4}.*\n?)+)/g)].map((m) => ({
    lang: 'indented',
    text: (m[1] ?? '').replace(/^ {4}/gm, '').trimEnd(),
  }));
  return [...fenced, ...indented];
}

/** Who runs each block: `here` (a test below) or the test file that does. */
const RUN_BY: ReadonlyArray<{ what: string; match: (b: Block) => boolean; by: string; runs?: string }> = [
  {
    what: 'diagrams and transcripts (no command in them)',
    match: (b) =>
      (b.lang === '' || b.lang === 'text' || b.lang === 'indented') &&
      !/^(\$ |svc-gitops |npm |npx |docker )/m.test(b.text),
    by: 'none',
  },
  {
    what: 'install from the packed tarball',
    match: (b) => b.text.includes('npm install -g ./svc-gitops-*.tgz'),
    by: 'test/package/pack-install.test.ts',
    runs: "'pack'",
  },
  {
    what: 'the container image',
    match: (b) => b.text.startsWith('docker build'),
    by: 'test/package/dockerfile.test.ts',
    runs: 'Dockerfile',
  },
  {
    what: 'the demo',
    match: (b) => b.text === 'npm ci && npm run demo',
    by: 'test/sandbox/demo.test.ts',
    runs: 'README steps',
  },
  { what: 'the first run', match: (b) => b.text.includes('svc-gitops init  '), by: 'here' },
  {
    what: 'shell completion',
    match: (b) => b.text.startsWith('source <(svc-gitops completion bash)'),
    by: 'here',
  },
  {
    what: 'validate output',
    match: (b) => b.lang === 'indented' && b.text.startsWith('$ svc-gitops validate'),
    by: 'here',
  },
  {
    what: 'the sandbox recipe',
    match: (b) => b.lang === 'indented' && b.text.startsWith('svc-gitops sandbox > sandbox.env &'),
    by: 'test/e2e/sandbox-env.test.ts',
    runs: 'sandbox.env',
  },
  {
    what: 'the library script',
    match: (b) => b.lang === 'ts' && b.text.includes("from 'svc-gitops'"),
    by: 'test/library/readme-script.test.ts',
    runs: 'the README library script',
  },
  {
    what: 'MCP client configurations',
    match: (b) => b.lang === 'json' && b.text.includes('"mcp"'),
    by: 'here',
  },
  {
    what: 'the action step',
    match: (b) => b.lang === 'yaml',
    by: 'test/github/workflows.test.ts',
    runs: 'Use it in GitHub Actions',
  },
  {
    what: 'the PR comment',
    match: (b) => b.lang === 'markdown',
    by: 'test/github/example-comment.test.ts',
    runs: 'Use it in GitHub Actions',
  },
  {
    what: 'the test and development commands (npm scripts, checked here)',
    match: (b) => /^npm ci\n|^npm ci && npm test$/.test(b.text),
    by: 'here',
  },
];

const sandbox = sandboxPer('suite', () =>
  startSandbox({
    fleet: demoFleet(),
  }),
);

/** The block's command lines, without comments and blank lines. */
const commands = (block: Block) =>
  block.text
    .split('\n')
    .map((line) => line.replace(/\s+# .*$/, '').trim())
    .filter((line) => line !== '');

const only = (what: string) => {
  const found = blocks().filter((b) => RUN_BY.find((r) => r.match(b))?.what === what);
  expect(found.length, what).toBeGreaterThan(0);
  return found;
};

describe('README examples', () => {
  it('every code block is claimed by exactly one runner, and each named test exists and runs it', () => {
    for (const block of blocks()) {
      const claims = RUN_BY.filter((r) => r.match(block));
      expect(claims.length, `README block not run by any test (or by two):\n${block.text}`).toBe(1);
    }
    for (const entry of RUN_BY.filter((r) => r.by !== 'here' && r.by !== 'none')) {
      expect(existsSync(join(ROOT, entry.by)), entry.by).toBe(true);
      expect(readFileSync(join(ROOT, entry.by), 'utf8'), entry.by).toContain(entry.runs);
    }
  });

  it('the first run, line by line, in an empty repository against the sandbox', async () => {
    const [block] = only('the first run');
    const dir = tempDirForSuiteRepo();
    let env: Record<string, string | undefined> = { HOME: dir };
    for (const line of commands(block!)) {
      if (line.startsWith('export ')) {
        // The placeholders of the README become the sandbox's login.
        expect(line).toMatch(/^export SVC_URL=\S+ SVC_USER=\S+ SVC_APP_PASSWORD='[^']+'$/);
        env = { ...env, ...fastClientEnv(sandbox), SVC_ALLOW_HTTP: 'true' };
        continue;
      }
      expect(line, line).toMatch(/^svc-gitops /);
      const run = await cli(line.split(' ').slice(1), { cwd: dir, env });
      expect(run.code, `${line}\n${run.stderr}`).toBe(0);
    }
    expect(existsSync(join(dir, 'plan.json'))).toBe(true);
  });

  it('validate: the commands print what the README shows', async () => {
    const dir = tempDirForFile('svc-gitops-readme-validate-');
    // broken.yaml as the README's message describes it: `unmanged` at line 5, column 3.
    writeFileSync(
      join(dir, 'broken.yaml'),
      'version: 1\n# unmanaged, misspelt\nignores:\n  rules: []\n  unmanged: report\n',
    );
    for (const block of only('validate output')) {
      const steps = block.text.split(/^\$ /m).filter(Boolean);
      for (const step of steps) {
        const [line = '', ...expected] = step.trimEnd().split('\n');
        const cwd = line.includes('examples/') ? ROOT : dir;
        const run = await cli(line.split(' ').slice(1), { cwd, env: { HOME: dir } });
        expect((run.stdout + run.stderr).trimEnd(), line).toBe(expected.join('\n'));
      }
    }
  });

  it('shell completion: the lines run in bash as written', () => {
    const [block] = only('shell completion');
    const home = tempDirForFile('svc-gitops-readme-home-');
    mkdirSync(join(home, '.zfunc'));
    mkdirSync(join(home, '.config/fish/completions'), { recursive: true });
    // `svc-gitops` on PATH: the source entry point through tsx.
    const bin = join(home, 'bin');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'svc-gitops'),
      `#!/bin/sh\nexec node --import tsx '${join(ROOT, 'src/cli/main.ts')}' "$@"\n`,
    );
    chmodSync(join(bin, 'svc-gitops'), 0o755);
    const script = `${commands(block!).join('\n')}\ncomplete -p svc-gitops\n`;
    const run = spawnSync('bash', ['--norc', '--noprofile', '-e', '-c', script], {
      cwd: ROOT,
      env: { PATH: `${bin}:${process.env.PATH}`, HOME: home },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('complete -o default -F _svc_gitops svc-gitops\n');
    expect(statSync(join(home, '.zfunc/_svc-gitops')).size).toBeGreaterThan(100);
    expect(statSync(join(home, '.config/fish/completions/svc-gitops.fish')).size).toBeGreaterThan(100);
  });

  it('the MCP client configurations are JSON that start `svc-gitops mcp --chdir DIR` (test/mcp/stdio-e2e.test.ts starts it so)', () => {
    for (const block of only('MCP client configurations')) {
      const config = JSON.parse(block.text) as Record<
        string,
        Record<string, { command: string; args: string[] }>
      >;
      const servers = Object.values(config.mcpServers ?? config.servers ?? {});
      expect(servers.length).toBe(1);
      for (const server of servers) {
        // `mcp --chdir DIR`: clients start servers anywhere, and some ignore a `cwd` key.
        expect(server.args.slice(-3, -1)).toEqual(['mcp', '--chdir']);
        expect(server).not.toHaveProperty('cwd');
        expect(['node', 'svc-gitops']).toContain(server.command);
        if (server.command === 'node') expect(server.args[0]).toMatch(/dist\/bin\/svc-gitops\.js$/);
      }
    }
  });

  it('the npm commands name scripts and paths that exist (the suite itself is what they run)', () => {
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    for (const block of only('the test and development commands (npm scripts, checked here)'))
      for (const line of commands(block).flatMap((l) => l.split(' && '))) {
        const script = /^npm (?:run )?(\S+)$/.exec(line)?.[1];
        const vitestPath = /^npx vitest run (\S+)$/.exec(line)?.[1];
        if (line === 'npm ci') continue;
        if (vitestPath) expect(existsSync(join(ROOT, vitestPath)), line).toBe(true);
        else expect(scripts[script ?? ''], line).toBeDefined();
      }
  });
});

/** An empty repository (a `.git` directory) removed after the file's tests. */
function tempDirForSuiteRepo(): string {
  const dir = tempDirForFile('svc-gitops-readme-');
  mkdirSync(join(dir, '.git'));
  return dir;
}
