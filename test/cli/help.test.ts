import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/errors.js';
import { SETTING_ENV } from '../../src/settings/index.js';
import { cli } from '../helpers/cli.js';
import { offlineProgram } from '../helpers/program.js';

/**
 * `--help` of the program and of every command, kept as files under test/cli/help/ (run
 * `npx vitest run test/cli/help.test.ts -u` after changing an option or a description, and read
 * the diff). Besides the snapshots: the sections every help must have.
 */
const COMMANDS = offlineProgram().commands.map((command) => command.name());

describe('--help', () => {
  it('lists the commands in the order of the workflow', () => {
    expect(COMMANDS).toEqual([
      'init',
      'import',
      'validate',
      'plan',
      'show',
      'apply',
      'comment',
      'drift',
      'status',
      'history',
      'sandbox',
      'mcp',
      'completion',
    ]);
  });

  it('of the program: workflow, examples, every environment variable and every exit code', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    await expect(help.stdout).toMatchFileSnapshot(join(import.meta.dirname, 'help', 'svc-gitops.txt'));
    expect(help.stdout).toContain('Workflow: init (or import) → validate → plan → apply');
    expect(help.stdout).toContain('Examples:\n  $ svc-gitops init');
    for (const variable of [
      ...Object.values(SETTING_ENV),
      'NO_COLOR',
      'SVC_GITOPS_STATE_DIR',
      'SVC_GITOPS_DEBUG',
    ])
      expect(help.stdout, variable).toMatch(new RegExp(`\\n  ${variable} +\\S`));
    for (const code of Object.values(EXIT))
      expect(help.stdout, String(code)).toMatch(new RegExp(`\\n  ${code} +\\S`));
    // Help is wrapped for 80 columns when not on a terminal.
    for (const line of help.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it.each(COMMANDS)('of %s: a description in lower case without a full stop, as the others', (command) => {
    const description = offlineProgram()
      .commands.find((c) => c.name() === command)
      ?.description();
    expect(description).toMatch(/^[a-z]/);
    expect(description).not.toMatch(/\.$/);
  });

  it.each(COMMANDS)('of %s, with examples', async (command) => {
    const help = await cli([command, '--help']);
    expect(help.code).toBe(0);
    await expect(help.stdout).toMatchFileSnapshot(join(import.meta.dirname, 'help', `${command}.txt`));
    expect(help.stdout).toMatch(/\nExamples:\n {2}\$ /);
    expect(help.stdout.match(/^Examples:$/gm)).toHaveLength(1);
    // Every example of a command is that command.
    for (const [, line] of help.stdout.matchAll(/^ {2}\$ (.*)$/gm))
      expect(line).toContain(`svc-gitops ${command}`);
  });

  it('every command that reads the dashboard with progress lines takes -q, --quiet', () => {
    const program = offlineProgram();
    for (const name of ['plan', 'apply', 'drift', 'comment']) {
      const command = program.commands.find((c) => c.name() === name);
      expect(command?.options.find((option) => option.long === '--quiet')?.short, name).toBe('-q');
    }
  });

  it('--version prints the version of package.json', async () => {
    const { version } = (await import('../../package.json', { with: { type: 'json' } })).default;
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });
});
