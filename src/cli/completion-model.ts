import type { Command, Option } from 'commander';

/**
 * What the completion scripts complete, read from the commander program itself, so a new
 * command, option or choice completes without an edit to the scripts' generators.
 */

/** How a value (an option's or a positional argument's) completes. */
export type ValueKind =
  /** From a fixed list: commander's `.choices()`. */
  | { kind: 'choices'; choices: readonly string[] }
  /** A path: the value's placeholder names a file, path, plan file or directory. */
  | { kind: 'file' }
  /** Anything else (a number, a site, a name): nothing is offered, never file names. */
  | { kind: 'none' };

export interface OptionModel {
  /** `-c`, `--config`: every spelling. */
  names: string[];
  description: string;
  /** Undefined for a flag that takes no value. */
  value: ValueKind | undefined;
}

export interface CommandModel {
  name: string;
  description: string;
  /** The command's own options, then --help. */
  options: OptionModel[];
  /** How its first positional argument completes; undefined when it takes none. */
  argument: ValueKind | undefined;
}

export interface CompletionModel {
  commands: CommandModel[];
  /** The program's options: they may come before the command or after it. */
  global: OptionModel[];
}

/** A placeholder that names a path: `<file>`, `<path>`, `<planfile>`, `<dir>`. */
const PATH_PLACEHOLDER = /^[<[](file|path|planfile|dir)(\.\.\.)?[>\]]$/;

function valueKind(placeholder: string, choices: readonly string[] | undefined): ValueKind {
  if (choices && choices.length > 0) return { kind: 'choices', choices };
  return PATH_PLACEHOLDER.test(placeholder) ? { kind: 'file' } : { kind: 'none' };
}

function optionModel(option: Option): OptionModel {
  const placeholder = /[<[][^>\]]*[>\]]/.exec(option.flags)?.[0] ?? '';
  return {
    names: [option.short, option.long].filter((name): name is string => name !== undefined),
    description: option.description,
    value: option.required || option.optional ? valueKind(placeholder, option.argChoices) : undefined,
  };
}

const HELP: OptionModel = { names: ['-h', '--help'], description: 'display help', value: undefined };

export function completionModel(program: Command): CompletionModel {
  const commands = program.commands.map((command) => {
    const first = command.registeredArguments[0];
    return {
      name: command.name(),
      description: command.description(),
      options: [...command.options.filter((o) => !o.hidden).map(optionModel), HELP],
      argument: first === undefined ? undefined : valueKind(`<${first.name()}>`, first.argChoices),
    };
  });
  const global = [...program.options.filter((o) => !o.hidden).map(optionModel), HELP];
  return { commands, global };
}

/** The global options that may follow the command (every one but --version and --help). */
export function globalAfterCommand(model: CompletionModel): OptionModel[] {
  return model.global.filter((o) => !o.names.includes('--version') && !o.names.includes('--help'));
}
