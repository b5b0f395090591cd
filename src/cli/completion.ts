import type { Command, Option } from 'commander';

/**
 * Shell completion scripts (bash, zsh, fish) generated from the commander program itself, so a
 * new command or option completes without an edit here. Option values complete from their
 * choices when they have some, else as file names; positional arguments complete as file names.
 */

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

interface OptionModel {
  /** `-c`, `--config`: every spelling. */
  names: string[];
  description: string;
  takesValue: boolean;
  choices: readonly string[];
}

interface CommandModel {
  name: string;
  description: string;
  options: OptionModel[];
  /** The choices of its first argument (`completion bash|zsh|fish`), else none. */
  argumentChoices: readonly string[];
}

function optionModel(option: Option): OptionModel {
  return {
    names: [option.short, option.long].filter((name): name is string => name !== undefined),
    description: option.description,
    takesValue: option.required || option.optional,
    choices: option.argChoices ?? [],
  };
}

const HELP: OptionModel = {
  names: ['-h', '--help'],
  description: 'display help',
  takesValue: false,
  choices: [],
};

function model(program: Command): { commands: CommandModel[]; global: OptionModel[] } {
  const commands = program.commands.map((command) => ({
    name: command.name(),
    description: command.description(),
    options: [...command.options.filter((o) => !o.hidden).map(optionModel), HELP],
    argumentChoices: command.registeredArguments[0]?.argChoices ?? [],
  }));
  const global = [...program.options.filter((o) => !o.hidden).map(optionModel), HELP];
  return { commands, global };
}

/** A word list for `compgen -W` / fish `-a`: the words are option names and choices, never user text. */
const words = (list: readonly string[]) => list.join(' ');
const singleQuoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function bash(program: Command): string {
  const { commands, global } = model(program);
  const valueCases = commands.flatMap((command) =>
    command.options
      .filter((o) => o.takesValue)
      .map((o) => {
        const pattern = o.names.map((name) => `${command.name}:${name}`).join('|');
        const reply =
          o.choices.length > 0
            ? `COMPREPLY=($(compgen -W ${singleQuoted(words(o.choices))} -- "$cur"))`
            : 'COMPREPLY=($(compgen -f -- "$cur"))';
        return `    ${pattern}) ${reply}; return ;;`;
      }),
  );
  const argumentCases = commands
    .filter((command) => command.argumentChoices.length > 0)
    .map(
      (command) =>
        `    ${command.name}) COMPREPLY=($(compgen -W ${singleQuoted(words(command.argumentChoices))} -- "$cur")) ;;`,
    );
  const optionCases = commands.map(
    (command) =>
      `    ${command.name}) COMPREPLY=($(compgen -W ${singleQuoted(words(command.options.flatMap((o) => o.names)))} -- "$cur")) ;;`,
  );
  return `# bash completion for svc-gitops: source <(svc-gitops completion bash)
_svc_gitops() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" command="" i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in
      -*) ;;
      *) command="\${COMP_WORDS[i]}"; break ;;
    esac
  done
  if [[ -z "$command" ]]; then
    COMPREPLY=($(compgen -W ${singleQuoted(words([...commands.map((c) => c.name), ...global.flatMap((o) => o.names)]))} -- "$cur"))
    return
  fi
  case "$command:$prev" in
${valueCases.join('\n')}
  esac
  if [[ "$cur" != -* ]]; then
    case "$command" in
${argumentCases.join('\n')}
    esac
    return
  fi
  case "$command" in
${optionCases.join('\n')}
  esac
}
complete -o default -F _svc_gitops svc-gitops
`;
}

/** Text inside a zsh `_arguments` spec's brackets or a `_describe` entry. */
const zshText = (text: string) => text.replace(/[\\'[\]:]/g, (c) => (c === "'" ? `'\\''` : `\\${c}`));

function zsh(program: Command): string {
  const { commands, global } = model(program);
  const spec = (o: OptionModel) => {
    const value = o.takesValue
      ? o.choices.length > 0
        ? `:value:(${words(o.choices)})`
        : ':file:_files'
      : '';
    const names = o.names.length > 1 ? `'(${o.names.join(' ')})'{${o.names.join(',')}}` : o.names[0];
    return `${names}'[${zshText(o.description)}]${value}'`;
  };
  const cases = commands.map(
    (command) =>
      `    ${command.name})\n      _arguments -s ${command.options.map(spec).join(' \\\n        ')} \\\n        ${command.argumentChoices.length > 0 ? `'1:${command.name}:(${words(command.argumentChoices)})'` : "'*:file:_files'"} ;;`,
  );
  return `#compdef svc-gitops
# zsh completion for svc-gitops: svc-gitops completion zsh > ~/.zfunc/_svc-gitops (fpath+=(~/.zfunc) before compinit)
_svc_gitops() {
  local -a commands
  commands=(
${commands.map((c) => `    '${zshText(c.name)}:${zshText(c.description)}'`).join('\n')}
  )
  local i command=''
  for ((i = 2; i < CURRENT; i++)); do
    if [[ $words[i] != -* ]]; then command=$words[i]; break; fi
  done
  if [[ -z $command ]]; then
    _arguments -s ${global.map(spec).join(' ')} '1:command:->command' && return
    _describe command commands
    return
  fi
  shift $((i - 1)) words
  (( CURRENT -= i - 1 ))
  case $command in
${cases.join('\n')}
  esac
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _svc_gitops "$@"
else
  compdef _svc_gitops svc-gitops
fi
`;
}

function fish(program: Command): string {
  const { commands, global } = model(program);
  const line = (condition: string, o: OptionModel) => {
    const names = o.names.map((name) =>
      name.startsWith('--') ? `-l ${name.slice(2)}` : `-s ${name.slice(1)}`,
    );
    const value = o.takesValue
      ? o.choices.length > 0
        ? ` -x -a ${singleQuoted(words(o.choices))}`
        : ' -r -F'
      : '';
    return `complete -c svc-gitops -n ${singleQuoted(condition)} ${names.join(' ')}${value} -d ${singleQuoted(o.description)}`;
  };
  const names = commands.map((c) => c.name).join(' ');
  return [
    '# fish completion for svc-gitops: svc-gitops completion fish > ~/.config/fish/completions/svc-gitops.fish',
    'complete -c svc-gitops -f',
    ...commands.map(
      (c) =>
        `complete -c svc-gitops -n ${singleQuoted(`not __fish_seen_subcommand_from ${names}`)} -a ${c.name} -d ${singleQuoted(c.description)}`,
    ),
    ...global.map((o) => line(`not __fish_seen_subcommand_from ${names}`, o)),
    ...commands.flatMap((c) => [
      c.argumentChoices.length > 0
        ? `complete -c svc-gitops -n ${singleQuoted(`__fish_seen_subcommand_from ${c.name}`)} -x -a ${singleQuoted(words(c.argumentChoices))}`
        : `complete -c svc-gitops -n ${singleQuoted(`__fish_seen_subcommand_from ${c.name}`)} -F`,
      ...c.options.map((o) => line(`__fish_seen_subcommand_from ${c.name}`, o)),
    ]),
    '',
  ].join('\n');
}

export function completionScript(program: Command, shell: Shell): string {
  return { bash, zsh, fish }[shell](program);
}
