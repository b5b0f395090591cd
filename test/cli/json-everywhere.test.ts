import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { expectFitsSchema } from '../helpers/json-schemas.js';
import { offlineProgram } from '../helpers/program.js';
import { demoFleet, fastClientEnv, sandboxPer } from '../helpers/sandbox.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/**
 * `--format json` on every command: a success is one document of its published schema, and a
 * failure is one error document (code, message, hint, diagnostics) on stdout, with the exit code
 * the text would have had.
 */
const sandbox = sandboxPer('suite', () => startSandbox({ fleet: demoFleet() }));
const COMMANDS = offlineProgram().commands.map((command) => command.name());

function repo(): string {
  const dir = tempDirForFile('svc-gitops-json-');
  mkdirSync(join(dir, '.git'));
  return dir;
}

/** The same command line with and without `--format json`: the same exit code, one document. */
async function failsAlike(argv: string[], options: { cwd: string; env: Record<string, string> }) {
  const text = await cli(argv, options);
  const json = await cli([...argv, '--format', 'json'], options);
  expect(json.code, json.stdout + json.stderr).toBe(text.code);
  expect(json.code).not.toBe(0);
  expect(json.stdout.trimEnd().split('\n'), 'one line, one document').toHaveLength(1);
  return expectFitsSchema('error', json.stdout) as { code: string; message: string; hint: string | null };
}

const unreachable = {
  SVC_URL: 'http://127.0.0.1:9',
  SVC_USER: 'admin',
  SVC_APP_PASSWORD: 'x y z',
  SVC_ALLOW_HTTP: 'true',
  SVC_RETRY_MAX_RETRIES: '1',
};

describe('--format json on every command', () => {
  it('every command takes it', () => {
    for (const command of offlineProgram().commands) {
      const format = command.options.find((option) => option.long === '--format');
      expect(format?.argChoices, command.name()).toContain('json');
    }
  });

  it.each(COMMANDS)('%s: a command line it refuses is a USAGE error document, exit 1', async (command) => {
    const dir = repo();
    const run = await failsAlike([command, '--no-such-option'], { cwd: dir, env: { HOME: dir } });
    expect(run.code).toBe('USAGE');
    expect(run.message).toContain("unknown option '--no-such-option'");
  });

  it('errors of the commands that read a desired state, a plan file, a fleet or the dashboard', async () => {
    const dir = repo();
    const env = { HOME: dir };
    expect((await failsAlike(['plan'], { cwd: dir, env })).code).toBe('CONFIG_INVALID');
    expect((await failsAlike(['drift'], { cwd: dir, env })).code).toBe('CONFIG_INVALID');
    expect((await failsAlike(['show', 'missing.json'], { cwd: dir, env })).message).toContain(
      'cannot read the plan file',
    );
    expect((await failsAlike(['apply', 'missing.json'], { cwd: dir, env })).message).toContain(
      'cannot read the plan file',
    );
    writeFileSync(join(dir, 'fleet.yaml'), 'sites: 3\n');
    expect((await failsAlike(['sandbox', '--fleet', 'fleet.yaml'], { cwd: dir, env })).code).toBe(
      'CONFIG_INVALID',
    );
    expect((await failsAlike(['mcp', '--http', 'port'], { cwd: dir, env })).code).toBe('USAGE');
    const dashboard = { ...env, ...unreachable };
    expect((await failsAlike(['import'], { cwd: dir, env: dashboard })).code).toBe('CONNECTION_FAILED');
    const init = await failsAlike(['init'], { cwd: dir, env: dashboard });
    expect(init.code).toBe('CONNECTION_FAILED');
    expect(init.hint).toEqual(expect.any(String));
  });

  it('an invalid desired state: the error document carries its diagnostics with their places', async () => {
    const dir = repo();
    writeFileSync(join(dir, 'svc-gitops.yaml'), 'version: 1\nignores:\n  unmanaged: sometimes\n');
    const json = await cli(['plan', '--format', 'json'], { cwd: dir, env: { HOME: dir, ...unreachable } });
    expect(json.code).toBe(1);
    const document = expectFitsSchema('error', json.stdout) as {
      code: string;
      diagnostics: Array<{ file: string; line: number }>;
    };
    expect(document.code).toBe('CONFIG_INVALID');
    expect(document.diagnostics[0]).toMatchObject({
      file: expect.stringContaining('svc-gitops.yaml'),
      line: 3,
    });
  });

  it('init, import and completion: one document each, of the command-report schema', async () => {
    const dir = repo();
    const init = await cli(['init', '--no-import', '--format', 'json'], { cwd: dir, env: { HOME: dir } });
    expect(init.code, init.stderr).toBe(0);
    expect(expectFitsSchema('command-report', init.stdout)).toMatchObject({
      kind: 'init',
      desired_state: 'starter',
      gitignore: '/.svc-gitops/',
      written: expect.arrayContaining(['svc-gitops.yaml', '.gitignore']),
    });
    const again = await cli(['init', '--format', 'json'], { cwd: dir, env: { HOME: dir } });
    expect(expectFitsSchema('command-report', again.stdout)).toMatchObject({
      written: [],
      desired_state: 'kept',
    });
    const env = { ...fastClientEnv(sandbox), SVC_ALLOW_HTTP: 'true', HOME: dir };
    const imported = await cli(['import', '--format', 'json'], { cwd: dir, env });
    expect(imported.code, imported.stderr).toBe(0);
    expect(expectFitsSchema('command-report', imported.stdout)).toMatchObject({
      kind: 'import',
      sites: 25,
      yaml: expect.stringContaining('version: 1'),
    });
    const completion = await cli(['completion', 'fish', '--format', 'json']);
    expect(expectFitsSchema('command-report', completion.stdout)).toMatchObject({
      kind: 'completion',
      shell: 'fish',
    });
  });

  it('sandbox: its connection settings as one document', async () => {
    const stop = new AbortController();
    const run = cli(['sandbox', '--format', 'json'], {
      signal: stop.signal,
      onStdout: () => stop.abort(new Error('SIGINT')),
    });
    const { code, stdout } = await run;
    expect(code).toBe(0);
    const document = expectFitsSchema('command-report', stdout) as {
      url: string;
      env: Record<string, string>;
    };
    expect(document.env.SVC_URL).toBe(document.url);
    expect(Object.keys(document.env)).toEqual(expect.arrayContaining(['SVC_USER', 'SVC_APP_PASSWORD']));
  });
});
