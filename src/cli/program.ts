import { Command } from 'commander';
import { registerApply } from './commands/apply.js';
import { registerComment } from './commands/comment.js';
import { registerCompletion } from './commands/completion.js';
import { registerDrift } from './commands/drift.js';
import { registerHistory } from './commands/history.js';
import { registerImport } from './commands/import.js';
import { registerInit } from './commands/init.js';
import { registerMcp } from './commands/mcp.js';
import { registerPlan } from './commands/plan.js';
import { registerSandbox } from './commands/sandbox.js';
import { registerShow } from './commands/show.js';
import { registerStatus } from './commands/status.js';
import { registerValidate } from './commands/validate.js';
import type { CliContext } from './context.js';
import { addHelpSections } from './help.js';
import { VERSION } from './version.js';

export { VERSION } from './version.js';

/**
 * Builds a fresh commander program per call, so tests can run many in one process.
 * Each command lives in `commands/<name>.ts` and exports `register<Name>(program, ctx, setExit)`;
 * its action is a plain async function that reports through `ctx` and sets the exit code.
 */
export function createProgram(ctx: CliContext, setExit: (code: number) => void): Command {
  const program = new Command('svc-gitops')
    .description('GitOps for dashboard update policies and ignore lists: validate, plan, apply.')
    .version(VERSION)
    .option('--no-color', 'no colour in any output (as NO_COLOR=1); colour is used only on a terminal')
    .option('--dashboard <name>', 'use this named dashboard of the settings file (as SVC_DASHBOARD)')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => (ctx.usageErrors ? ctx.usageErrors(s) : ctx.stderr.write(s)),
      // Help wraps to the terminal, else to 80 columns: the same text in a pipe, a file or a test.
      getOutHelpWidth: () => (ctx.stdout.isTTY && ctx.stdout.columns) || 80,
      getErrHelpWidth: () => (ctx.stderr.isTTY && ctx.stderr.columns) || 80,
    })
    .exitOverride()
    .hook('preAction', (root) => {
      // Commands decide colour from NO_COLOR (useColour), so the flag is that variable.
      const options = root.opts<{ color: boolean; dashboard?: string }>();
      if (options.color === false) ctx.env = { ...ctx.env, NO_COLOR: '1' };
      if (options.dashboard !== undefined) ctx.env = { ...ctx.env, SVC_DASHBOARD: options.dashboard };
    });

  // In the order of the workflow, which is the order `--help` lists them in.
  registerInit(program, ctx, setExit);
  registerImport(program, ctx, setExit);
  registerValidate(program, ctx, setExit);
  registerPlan(program, ctx, setExit);
  registerShow(program, ctx, setExit);
  registerApply(program, ctx, setExit);
  registerComment(program, ctx, setExit);
  registerDrift(program, ctx, setExit);
  registerStatus(program, ctx, setExit);
  registerHistory(program, ctx, setExit);
  registerSandbox(program, ctx, setExit);
  registerMcp(program, ctx, setExit);
  registerCompletion(program, ctx, setExit);
  // command registrations (one line each; keep this marker)
  addHelpSections(program);
  return program;
}
