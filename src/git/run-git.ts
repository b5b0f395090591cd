import { execFile } from 'node:child_process';
import { SvcError } from '../errors.js';

/** What a git command printed, as bytes: file contents travel through it unchanged. */
export interface GitOutput {
  stdout: Buffer;
}

/** Largest output read from one git command: a desired-state file is far smaller. */
const MAX_OUTPUT = 64 * 1024 * 1024;

/**
 * Runs `git -C cwd ...args` without a shell (arguments are never interpreted), with no prompt
 * for credentials and no pager. A failure is IO_ERROR carrying git's own first line, which
 * names the ref or path it could not find.
 */
export function runGit(cwd: string, args: readonly string[], signal?: AbortSignal): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-C', cwd, '-c', 'core.quotepath=off', ...args],
      {
        encoding: 'buffer',
        maxBuffer: MAX_OUTPUT,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C' },
        ...(signal ? { signal } : {}),
      },
      (error, stdout, stderr) => {
        if (!error) return resolve({ stdout });
        if (signal?.aborted) return reject(new SvcError('INTERRUPTED', 'git was stopped by a signal'));
        const said = firstLine(stderr) || error.message;
        reject(
          new SvcError('IO_ERROR', `git ${args[0]} failed: ${said}`, {
            cause: error,
          }),
        );
      },
    );
  });
}

function firstLine(bytes: Buffer | string): string {
  return String(bytes).trim().split('\n')[0]?.trim() ?? '';
}
