import { Argument, type Command } from 'commander';
import { EXIT } from '../../errors.js';
import { completionScript, SHELLS, type Shell } from '../completion.js';
import type { CliContext } from '../context.js';

/** `svc-gitops completion bash|zsh|fish`: prints the shell's completion script. */
export function registerCompletion(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('completion')
    .description('print the shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(SHELLS))
    .action((shell: Shell) => {
      ctx.stdout.write(completionScript(program, shell));
      setExit(EXIT.ok);
    });
}
