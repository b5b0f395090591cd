import { CommanderError } from 'commander';
import { EXIT, isSvcError } from '../errors.js';
import { terminalText } from '../render/index.js';
import { DEFAULT_CREDENTIALS } from '../sandbox/index.js';
import { SecretMask } from '../secrets/index.js';
import type { CliContext, OutputStream } from './context.js';
import { cliWords } from './hints.js';
import { jsonRequested, reportErrorJson } from './json-errors.js';
import { maskedFs } from './masked-fs.js';
import { createProgram } from './program.js';

/** Environment variables whose values must never reach any output. */
const SECRET_VARIABLES = ['SVC_APP_PASSWORD', 'SVC_TOKEN', 'SVC_WEBHOOK_URL', 'GITHUB_TOKEN', 'GH_TOKEN'];

/**
 * Runs one command line and returns its exit code. Never throws: user errors become a message
 * (code, what, hint) on stderr, or with `--format json` one JSON document on stdout; only a bug
 * prints a stack, and only with SVC_GITOPS_DEBUG set.
 */
export async function runCli(argv: string[], ctx: CliContext): Promise<number> {
  const redactor = new Redactor();
  redactor.add(SECRET_VARIABLES.map((name) => ctx.env[name]));
  // With --format json a usage error is part of the error document, not a line on stderr.
  const json = jsonRequested(argv);
  let usage = '';
  const safe: CliContext = {
    ...ctx,
    stdout: redactor.stream(ctx.stdout),
    stderr: redactor.stream(ctx.stderr),
    fs: maskedFs(ctx.fs, (text) => redactor.mask(text)),
    settingsFs: ctx.settingsFs ?? ctx.fs,
    addSecrets: (values) => redactor.add(values),
    redact: (text) => redactor.mask(text),
    ...(json
      ? {
          usageErrors: (text: string) => {
            usage += text;
          },
        }
      : {}),
  };
  let exitCode: number = EXIT.ok;
  const program = createProgram(safe, (code) => {
    exitCode = Math.max(exitCode, code);
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    return json ? reportErrorJson(error, safe, usage) : reportError(error, safe);
  }
}

export function reportError(error: unknown, ctx: CliContext): number {
  if (error instanceof CommanderError) {
    // --help and --version end here with exit code 0; usage errors were already printed.
    return error.exitCode === 0 ? EXIT.ok : EXIT.error;
  }
  if (isSvcError(error)) {
    if (error.code === 'INTERRUPTED') {
      ctx.stderr.write(`svc-gitops: interrupted: ${terminalText(error.message)}\n`);
      return EXIT.interrupted;
    }
    // Messages may quote what the dashboard sent: no escape sequence of its reaches the terminal.
    const { message, hint } = cliWords(error);
    ctx.stderr.write(`svc-gitops: error [${error.code}]: ${terminalText(message)}\n`);
    if (hint) ctx.stderr.write(`  hint: ${terminalText(hint)}\n`);
    return EXIT.error;
  }
  const message = error instanceof Error ? error.message : String(error);
  ctx.stderr.write(`svc-gitops: internal error: ${terminalText(message)}\n`);
  ctx.stderr.write(
    '  this is a bug in svc-gitops; set SVC_GITOPS_DEBUG=1 for details and please report it\n',
  );
  if (ctx.env.SVC_GITOPS_DEBUG && error instanceof Error && error.stack) ctx.stderr.write(`${error.stack}\n`);
  return EXIT.error;
}

/** The sandbox's fixed demo credentials are published, not secrets: `sandbox` prints them. */
const PUBLISHED = new Set([DEFAULT_CREDENTIALS.applicationPassword, DEFAULT_CREDENTIALS.token]);

/** Defence in depth: even if a secret slipped into a message, it is masked on the way out. */
class Redactor {
  private readonly secrets = new SecretMask();

  /** Masks `values` (and every spelling SecretMask knows of them) in all further output. */
  add(values: ReadonlyArray<string | undefined>): void {
    this.secrets.add(values.filter((value) => value === undefined || !PUBLISHED.has(value)));
  }

  mask(text: string): string {
    return this.secrets.mask(text);
  }

  stream(stream: OutputStream): OutputStream {
    const out: OutputStream = { write: (chunk: string) => stream.write(this.mask(chunk)) };
    if (stream.drained !== undefined) out.drained = stream.drained;
    if (stream.isTTY !== undefined) out.isTTY = stream.isTTY;
    if (stream.columns !== undefined) out.columns = stream.columns;
    return out;
  }
}
