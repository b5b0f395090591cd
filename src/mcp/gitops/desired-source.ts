import { isAbsolute, relative, resolve } from 'node:path';
import { type DesiredState, type Diagnostic, SvcError } from '../../index.js';

/** A desired state checked: the source as given, the state when valid, every problem found. */
export interface Validated {
  /** The path as given (or the name the YAML text was checked under). */
  source: string;
  desired?: DesiredState;
  diagnostics: Diagnostic[];
}

/**
 * A path the agent names must stay inside the working directory: the tool server reads the
 * desired state of the repository it was started in, never any file of the machine.
 */
export function insideWorkingDirectory(cwd: string, path: string, alternative = ''): string {
  const full = resolve(cwd, path);
  const rel = relative(cwd, full);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw new SvcError('USAGE', `${path} is outside the working directory`, {
      hint: `give a path inside the directory the tool server was started in${alternative ? `, ${alternative}` : ''}`,
    });
  }
  return rel === '' ? '.' : rel;
}

/** Problems a tool answer shows at once (the validate tool lists every one). */
const PROBLEMS_SHOWN = 3;

/** The config hints in a tool's words: its argument, and the server's directory it is relative to. */
export function toolChoice(cwd: string): { how: string; create: string } {
  return {
    how: 'the config argument (a path inside that directory)',
    create: `the tool server works in ${cwd} (its operator sets it with --chdir DIR): create svc-gitops.yaml there`,
  };
}

/**
 * The CLI prints a desired state's problems before its "N error(s)" refusal; a tool's caller sees
 * only the refusal, so it carries the first problems with their places.
 */
export async function withProblems<T>(problems: readonly Diagnostic[], run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof SvcError) || error.code !== 'CONFIG_INVALID') throw error;
    const shown = problems
      .filter((d) => d.severity === 'error')
      .slice(0, PROBLEMS_SHOWN)
      .map((d) => `${d.file ?? ''}${d.line ? `:${d.line}:${d.col ?? 1}` : ''}: ${d.message}`);
    if (shown.length === 0) throw error;
    throw new SvcError('CONFIG_INVALID', `${error.message}: ${shown.join('; ')}`, {
      hint: 'fix them; the validate tool lists every problem with its file:line:col and a hint',
    });
  }
}
