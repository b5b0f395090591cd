import * as fs from 'node:fs';
import type { CliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/run.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  fs?: CliContext['fs'];
  /** Answers given at the prompt, in order; absent means "no terminal". */
  answers?: string[];
  tty?: boolean;
  signal?: AbortSignal;
  now?: () => Date;
  /** The client's and the progress lines' clock (CliContext.timers). */
  timers?: CliContext['timers'];
  /** Sees each chunk written to stdout as it is written. */
  onStdout?: (chunk: string) => void;
  /** Sees each chunk written to stderr as it is written. */
  onStderr?: (chunk: string) => void;
}

/** Runs the CLI in-process with captured output, a given environment and file system. */
export async function cli(argv: string[], options: CliOptions = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const ctx: CliContext = {
    stdout: {
      write: (s: string) => {
        options.onStdout?.(s);
        stdout += s;
      },
      isTTY: options.tty ?? false,
    },
    stderr: {
      write: (s: string) => {
        options.onStderr?.(s);
        stderr += s;
      },
      isTTY: options.tty ?? false,
    },
    env: { NO_COLOR: '1', ...options.env },
    cwd: options.cwd ?? process.cwd(),
    fs: options.fs ?? fs,
    signal: options.signal ?? new AbortController().signal,
    now: options.now ?? (() => new Date()),
    ...(options.timers ? { timers: options.timers } : {}),
  };
  if (options.answers) {
    const answers = [...options.answers];
    ctx.prompt = async (question) => {
      stderr += question;
      return answers.shift() ?? '';
    };
  }
  const code = await runCli(argv, ctx);
  return { code, stdout, stderr };
}
