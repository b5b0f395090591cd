import { createProgram } from '../../src/cli/program.js';

/**
 * The CLI's commander program over a context that writes nowhere and reads nothing: for tests
 * of its shape (commands, options, help, completion), never for running a command.
 */
export function offlineProgram(): ReturnType<typeof createProgram> {
  return createProgram(
    {
      stdout: { write: () => true },
      stderr: { write: () => true },
      env: {},
      cwd: '.',
      fs: {} as never,
      signal: new AbortController().signal,
      now: () => new Date(),
    },
    () => undefined,
  );
}
