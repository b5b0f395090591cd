import { type Command, Option } from 'commander';
import { loadDesiredState, resolveConfigPath } from '../../engine/index.js';
import { EXIT, isSvcError } from '../../errors.js';
import {
  countDiagnostics,
  DIAGNOSTIC_FORMATS,
  type DiagnosticFormat,
  renderDiagnosticsGithub,
  renderDiagnosticsJson,
  renderDiagnosticsText,
} from '../../render/index.js';
import type { DesiredState } from '../../types.js';
import { type CliContext, useColour } from '../context.js';

const MiB = 1024 * 1024;
/** From this size on, reading takes long enough to be announced. */
const LARGE_INPUT = MiB;

interface ValidateOptions {
  config?: string;
  format: DiagnosticFormat;
}

/** `svc-gitops validate [-c PATH] [--format text|github|json]`: exit 0 when valid, 1 otherwise. */
export function registerValidate(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  // program.command() (not addCommand) so the subcommand inherits exitOverride and output settings.
  program
    .command('validate')
    .description('check the desired state (schema and rules) without contacting the dashboard')
    .option(
      '-c, --config <path>',
      'desired-state file or directory (default: svc-gitops.yaml, else svc-gitops/)',
    )
    .addOption(new Option('--format <format>', 'output format').choices(DIAGNOSTIC_FORMATS).default('text'))
    .action(async (options: ValidateOptions) => setExit(await validate(ctx, options)));
}

export async function validate(ctx: CliContext, options: ValidateOptions): Promise<number> {
  let path: string;
  let loaded: Awaited<ReturnType<typeof loadDesiredState>>;
  try {
    path = resolveConfigPath(ctx.fs, ctx.cwd, options.config);
    loaded = await loadDesiredState({
      path,
      fs: ctx.fs,
      cwd: ctx.cwd,
      signal: ctx.signal,
      onRead: ({ files, bytes }) => {
        // A large input takes seconds: say what is being read, so a wait is not mistaken for a hang.
        if (bytes >= LARGE_INPUT)
          ctx.stderr.write(
            `svc-gitops: validating ${plural(files, 'file')}, ${(bytes / MiB).toFixed(1)} MiB\n`,
          );
      },
    });
  } catch (error) {
    // No desired state to find (none, or both defaults): in the machine formats a diagnostic too,
    // so a CI step reading JSON or annotations sees why (its rule: the code, kebab-case as all rules).
    if (options.format === 'text' || !isSvcError(error) || error.code === 'INTERRUPTED') throw error;
    path = options.config ?? ctx.cwd;
    const { code, message, hint } = error;
    loaded = {
      diagnostics: [
        {
          severity: 'error',
          rule: code.toLowerCase().replaceAll('_', '-'),
          message,
          ...(hint ? { hint } : {}),
        },
      ],
    };
  }
  const { desired, diagnostics } = loaded;
  const { errors, warnings } = countDiagnostics(diagnostics);
  const verdict = desired
    ? `${path}: valid (${summary(desired)}${warnings > 0 ? `; ${plural(warnings, 'warning')}` : ''})`
    : `${path}: invalid (${plural(errors, 'error')}${warnings > 0 ? `, ${plural(warnings, 'warning')}` : ''})`;
  if (options.format === 'json') {
    const extra: Record<string, unknown> = { path };
    if (desired) extra.digest = desired.digest;
    ctx.stdout.write(renderDiagnosticsJson(diagnostics, extra));
  } else if (options.format === 'github') {
    ctx.stdout.write(renderDiagnosticsGithub(diagnostics));
    ctx.stdout.write(`svc-gitops: ${verdict}\n`);
  } else {
    ctx.stdout.write(renderDiagnosticsText(diagnostics, { colour: useColour(ctx) }));
    ctx.stdout.write(`${verdict}\n`);
  }
  return desired ? EXIT.ok : EXIT.error;
}

function summary(d: DesiredState): string {
  return [
    plural(d.files.length, 'file'),
    plural(d.ignores.length, 'ignore rule'),
    plural(d.policies.length, 'update policy', 'update policies'),
    plural(d.holds.length, 'hold'),
    plural(d.waves.length, 'wave'),
    `unmanaged ignores: ${d.ignoreScope}`,
  ].join(', ');
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
