import { Argument, type Command } from 'commander';
import { EXIT } from '../../errors.js';
import { completionScript, SHELLS, type Shell } from '../completion.js';
import type { CliContext } from '../context.js';
import { jsonLine, type TextOrJson, textOrJsonOption } from '../format-option.js';

/** `svc-gitops completion bash|zsh|fish`: prints the shell's completion script. */
export function registerCompletion(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('completion')
    .description('print the shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(SHELLS))
    .addOption(textOrJsonOption('the script in a document'))
    .action((shell: Shell, flags: { format: TextOrJson }) => {
      const script = completionScript(program, shell);
      ctx.stdout.write(flags.format === 'json' ? jsonLine({ kind: 'completion', shell, script }) : script);
      setExit(EXIT.ok);
    });
}
