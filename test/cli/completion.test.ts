import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { offlineProgram } from '../helpers/program.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/**
 * `svc-gitops completion bash|zsh|fish`: the bash script is loaded into a real bash and asked to
 * complete, as bash asks it (COMP_WORDS, COMP_CWORD); zsh and fish, where installed, parse theirs.
 */
const program = offlineProgram();
const dir = tempDirForFile('svc-gitops-completion-');

async function script(shell: string): Promise<string> {
  const run = await cli(['completion', shell]);
  expect(run.code, run.stderr).toBe(0);
  const file = join(dir, `svc-gitops.${shell}`);
  writeFileSync(file, run.stdout);
  return file;
}

const has = (shell: string) => spawnSync(shell, ['-c', 'true']).status === 0;

/** What bash offers for the words typed so far (the last one is being completed). */
function bashComplete(file: string, lines: string[][]): string[] {
  const calls = lines
    .map(
      (words) =>
        `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; COMPREPLY=(); _svc_gitops; echo "\${COMPREPLY[*]}"`,
    )
    .join('\n');
  const run = spawnSync(
    'bash',
    ['--norc', '--noprofile', '-c', `source '${file}' && complete -p svc-gitops >&2 && ${calls}`],
    {
      encoding: 'utf8',
    },
  );
  expect(run.status, run.stderr).toBe(0);
  expect(run.stderr).toBe('complete -o default -F _svc_gitops svc-gitops\n');
  return run.stdout.split('\n').slice(0, lines.length);
}

describe('completion', () => {
  it('bash: loads, and completes commands, options and option values', async () => {
    const file = await script('bash');
    const [commands, plan, format, afterGlobal, shells, validateFormat] = bashComplete(file, [
      ['svc-gitops', ''],
      ['svc-gitops', 'plan', '--f'],
      ['svc-gitops', 'plan', '--format', ''],
      ['svc-gitops', '--no-color', 'validate', '--format', 'j'],
      ['svc-gitops', 'completion', ''],
      ['svc-gitops', 'validate', '--format', ''],
    ]);
    expect(commands?.split(' ')).toEqual(
      expect.arrayContaining([...program.commands.map((c) => c.name()), '--version', '--no-color', '--help']),
    );
    expect(plan).toBe('--format');
    expect(format).toBe('text markdown json');
    expect(afterGlobal).toBe('json');
    expect(shells).toBe('bash zsh fish');
    expect(validateFormat).toBe('text github json');
  });

  it('bash: every option of every command is offered after that command', async () => {
    const file = await script('bash');
    const replies = bashComplete(
      file,
      program.commands.map((command) => ['svc-gitops', command.name(), '-']),
    );
    program.commands.forEach((command, index) => {
      const offered = (replies[index] ?? '').split(' ');
      for (const option of command.options)
        expect(offered, `${command.name()} ${option.flags}`).toContain(option.long);
      expect(offered).toContain('--help');
    });
  });

  it.skipIf(!has('zsh'))('zsh: the script parses and defines the completion function', async () => {
    const file = await script('zsh');
    const run = spawnSync(
      'zsh',
      ['-f', '-c', `autoload -U compinit && compinit -u -D && source '${file}' && whence -w _svc_gitops`],
      { encoding: 'utf8' },
    );
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('_svc_gitops: function\n');
  });

  it.skipIf(!has('fish'))('fish: the script loads and completes commands and option values', async () => {
    const file = await script('fish');
    const run = spawnSync(
      'fish',
      [
        '--no-config',
        '-c',
        `source '${file}'; complete -C 'svc-gitops pl'; complete -C 'svc-gitops plan --format '`,
      ],
      { encoding: 'utf8' },
    );
    expect(run.stderr).toBe('');
    const offered = run.stdout.split('\n').map((line) => line.split('\t')[0]);
    expect(offered).toEqual(expect.arrayContaining(['plan', 'text', 'markdown', 'json']));
  });

  it('refuses a shell it has no script for', async () => {
    const run = await cli(['completion', 'powershell']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "'powershell' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.",
    );
  });
});
