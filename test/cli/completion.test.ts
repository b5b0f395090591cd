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

/** A shell is driven only where it is installed (`apt-get install bash zsh fish`); else one line says so. */
const has = (shell: string) => {
  const found = spawnSync(shell, ['-c', 'true']).status === 0;
  if (!found) console.warn(`completion: ${shell} is not installed here; its completion tests are skipped`);
  return found;
};
const HAS = { bash: has('bash'), zsh: has('zsh'), fish: has('fish') };

/** Lines typed at each shell, and what each must offer for the word at its end. */
const CASES: ReadonlyArray<readonly [string, string[]]> = [
  ['svc-gitops apply --format ', ['text', 'markdown', 'json']],
  ['svc-gitops sandbox --profile ', ['compat-6.1', 'spec', 'next']],
  ['svc-gitops --dashboard prod plan --fo', ['--format']],
  ['svc-gitops --dashboard prod plan --format j', ['json']],
  ['svc-gitops plan --dashboard prod --group-by ', ['site', 'item']],
  ['svc-gitops completion ', ['bash', 'zsh', 'fish']],
  ['svc-gitops pl', ['plan']],
  // A value that is not a path offers nothing, never file names.
  ['svc-gitops sandbox --port ', []],
  ['svc-gitops --dashboard ', []],
  // A path does complete as one.
  ['svc-gitops apply saved-', ['saved-plan.json']],
];

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

/** A directory with one file, where file-name completion has something to find. */
function workDir(): string {
  const cwd = tempDirForFile('svc-gitops-completion-cwd-');
  writeFileSync(join(cwd, 'saved-plan.json'), '{}');
  return cwd;
}

const sorted = (list: string[]) => [...new Set(list)].sort();

describe('completion', () => {
  it.skipIf(!HAS.bash)('bash: loads, and completes commands, options and option values', async () => {
    const file = await script('bash');
    const [commands, plan, format, afterGlobal, shells, validateFormat] = bashComplete(file, [
      ['svc-gitops', ''],
      ['svc-gitops', 'plan', '--fo'],
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

  it.skipIf(!HAS.bash)(
    'bash: option values, after global options, nothing where no value is known',
    async () => {
      const file = await script('bash');
      const cwd = workDir();
      const calls = CASES.map(([line]) => {
        const words = line.split(' ');
        return `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; COMPREPLY=(); _svc_gitops; echo "\${COMPREPLY[*]}"`;
      });
      const run = spawnSync(
        'bash',
        ['--norc', '--noprofile', '-c', `source '${file}' && ${calls.join('\n')}`],
        {
          cwd,
          encoding: 'utf8',
        },
      );
      expect(run.stderr).toBe('');
      const replies = run.stdout.split('\n');
      CASES.forEach(([line, offered], index) => {
        expect(sorted((replies[index] ?? '').split(' ').filter(Boolean)), line).toEqual(sorted(offered));
      });
    },
  );

  it.skipIf(!HAS.bash)('bash: every option of every command is offered after that command', async () => {
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

  it.skipIf(!HAS.zsh)(
    'zsh: installed in fpath, completes option values and after global options',
    async () => {
      const fpath = tempDirForFile('svc-gitops-zfunc-');
      writeFileSync(join(fpath, '_svc-gitops'), (await cli(['completion', 'zsh'])).stdout);
      const run = spawnSync(
        'zsh',
        [
          '-f',
          join(import.meta.dirname, 'completion', 'zsh-capture.zsh'),
          fpath,
          ...CASES.map(([line]) => line),
        ],
        { cwd: workDir(), encoding: 'utf8', timeout: 120_000 },
      );
      expect(run.status, run.stderr).toBe(0);
      const offered = run.stdout
        .split('<case>')
        .slice(0, CASES.length)
        .map((part) => [...part.matchAll(/<h>(.*?)<\/h>/g)].map((m) => m[1] ?? ''));
      // Every line in one shell: the autoloaded function completes each time, not the first only.
      CASES.forEach(([line, expected], index) => {
        expect(sorted(offered[index] ?? []), line).toEqual(sorted(expected));
      });
    },
  );

  it.skipIf(!HAS.zsh)('zsh: sourced, the script defines and registers the completion function', async () => {
    const file = await script('zsh');
    const run = spawnSync(
      'zsh',
      ['-f', '-c', `autoload -U compinit && compinit -u -D && source '${file}' && whence -w _svc-gitops`],
      { encoding: 'utf8' },
    );
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('_svc-gitops: function\n');
  });

  it.skipIf(!HAS.fish)('fish: completes commands, option values and after global options', async () => {
    const file = await script('fish');
    const cwd = workDir();
    for (const [line, expected] of CASES) {
      const run = spawnSync(
        'fish',
        ['--no-config', '-c', `source '${file}'; complete --do-complete '${line}'`],
        {
          cwd,
          encoding: 'utf8',
        },
      );
      expect(run.stderr, line).toBe('');
      const offered = run.stdout
        .split('\n')
        .filter(Boolean)
        .map((entry) => entry.split('\t')[0] ?? '');
      expect(sorted(offered), line).toEqual(sorted(expected));
    }
  });

  it('refuses a shell it has no script for', async () => {
    const run = await cli(['completion', 'powershell']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "'powershell' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.",
    );
  });
});
