import { Command } from 'commander';
import { registerApply } from './commands/apply.js';
import { registerComment } from './commands/comment.js';
import { registerDrift } from './commands/drift.js';
import { registerImport } from './commands/import.js';
import { registerMcp } from './commands/mcp.js';
import { registerPlan } from './commands/plan.js';
import { registerSandbox } from './commands/sandbox.js';
import { registerShow } from './commands/show.js';
import { registerValidate } from './commands/validate.js';
import type { CliContext } from './context.js';

export const VERSION = '0.1.0';

/**
 * Builds a fresh commander program per call, so tests can run many in one process.
 * Each command lives in `commands/<name>.ts` and exports `register<Name>(program, ctx, setExit)`;
 * its action is a plain async function that reports through `ctx` and sets the exit code.
 */
export function createProgram(ctx: CliContext, setExit: (code: number) => void): Command {
  const program = new Command('svc-gitops')
    .description('GitOps for dashboard update policies and ignore lists: validate, plan, apply.')
    .version(VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => ctx.stderr.write(s),
    })
    .exitOverride();

  registerValidate(program, ctx, setExit);
  registerSandbox(program, ctx, setExit);
  registerComment(program, ctx, setExit);
  registerDrift(program, ctx, setExit);
  registerPlan(program, ctx, setExit);
  registerImport(program, ctx, setExit);
  registerApply(program, ctx, setExit);
  registerShow(program, ctx, setExit);
  registerMcp(program, ctx, setExit);
  // command registrations (one line each; keep this marker)
  return program;
}
