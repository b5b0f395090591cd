import { CommanderError } from 'commander';
import { type Diagnostic, EXIT, isSvcError } from '../errors.js';
import type { CliContext } from './context.js';
import { jsonLine } from './format-option.js';
import { cliWords } from './hints.js';

/**
 * `--format json` errors: one JSON document on stdout (`schemas/error.schema.json`), so a script
 * that parses stdout gets an answer for a failure too; the exit code is the one the text would
 * have. Decided from the command line before parsing, since a usage error stops parsing.
 */

export interface ErrorDocument {
  kind: 'error';
  code: string;
  message: string;
  hint: string | null;
  diagnostics: Diagnostic[];
}

/** Whether the command line asks for JSON: its last `--format` (before a `--`) says `json`. */
export function jsonRequested(argv: readonly string[]): boolean {
  let json = false;
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i];
    if (word === '--') break;
    if (word === '--format') json = argv[i + 1] === 'json';
    else if (word?.startsWith('--format=')) json = word === '--format=json';
  }
  return json;
}

/** Prints the error as its document on stdout and returns the exit code the text would have. */
export function reportErrorJson(error: unknown, ctx: CliContext, usage: string): number {
  const write = (document: ErrorDocument) => ctx.stdout.write(jsonLine(document));
  if (error instanceof CommanderError) {
    // --help and --version print what was asked and end here with exit code 0.
    if (error.exitCode === 0) return EXIT.ok;
    const message = usage.split('\n')[0]?.replace(/^error: /, '') || error.message;
    write({
      kind: 'error',
      code: 'USAGE',
      message,
      hint: 'run the command with --help for usage',
      diagnostics: [],
    });
    return EXIT.error;
  }
  if (isSvcError(error)) {
    const diagnostics = Array.isArray(error.details.diagnostics)
      ? (error.details.diagnostics as Diagnostic[])
      : [];
    const { message, hint } = cliWords(error);
    write({ kind: 'error', code: error.code, message, hint: hint ?? null, diagnostics });
    return error.code === 'INTERRUPTED' ? EXIT.interrupted : EXIT.error;
  }
  const message = error instanceof Error ? error.message : String(error);
  write({
    kind: 'error',
    code: 'INTERNAL',
    message,
    hint: 'this is a bug in svc-gitops; set SVC_GITOPS_DEBUG=1 for details and please report it',
    diagnostics: [],
  });
  if (ctx.env.SVC_GITOPS_DEBUG && error instanceof Error && error.stack) ctx.stderr.write(`${error.stack}\n`);
  return EXIT.error;
}
