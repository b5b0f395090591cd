import {
  type CompletionModel,
  globalAfterCommand,
  type OptionModel,
  type ValueKind,
} from './completion-model.js';

/** Text inside a zsh `_arguments` spec's brackets or a `_describe` entry. */
const zshText = (text: string) => text.replace(/[\\'[\]:]/g, (c) => (c === "'" ? `'\\''` : `\\${c}`));

/** The action of an `_arguments` spec: a list, files, or a single space (a message, no matches). */
function action(name: string, value: ValueKind): string {
  if (value.kind === 'choices') return `:${name}:(${value.choices.join(' ')})`;
  if (value.kind === 'file') return `:${name}:_files`;
  return `:${name}: `;
}

function spec(o: OptionModel): string {
  const value = o.value === undefined ? '' : action('value', o.value);
  const names = o.names.length > 1 ? `'(${o.names.join(' ')})'{${o.names.join(',')}}` : o.names[0];
  return `${names}'[${zshText(o.description)}]${value}'`;
}

/**
 * The zsh script: the command is found past the global options and their values, then the
 * words are shifted so `_arguments` sees that command's line alone, with its own options and
 * the global ones (which may follow the command).
 */
export function zshScript(model: CompletionModel): string {
  const { commands, global } = model;
  const after = globalAfterCommand(model);
  const globalValues = global.filter((o) => o.value !== undefined).flatMap((o) => o.names);
  const cases = commands.map((command) => {
    const specs = [...command.options, ...after].map(spec);
    if (command.argument) specs.push(`'1${action(command.name, command.argument)}'`);
    return `    (${command.name})\n      _arguments -s \\\n        ${specs.join(' \\\n        ')} ;;`;
  });
  return `#compdef svc-gitops
# zsh completion for svc-gitops: svc-gitops completion zsh > ~/.zfunc/_svc-gitops (fpath+=(~/.zfunc) before compinit)
_svc-gitops() {
  local -a commands
  commands=(
${commands.map((c) => `    '${zshText(c.name)}:${zshText(c.description)}'`).join('\n')}
  )
  local i=2 command='' state
  # The command is the first word that is neither an option nor a global option's value.
  while (( i < CURRENT )); do
    case $words[i] in
${globalValues.length > 0 ? `      (${globalValues.join('|')}) (( i += 2 )); continue ;;\n` : ''}      (-*) ;;
      (*) command=$words[i]; break ;;
    esac
    (( i++ ))
  done
  if [[ -z $command ]]; then
    _arguments -s ${global.map(spec).join(' ')} '1:command:->command' && return
    [[ $state == command ]] && _describe command commands
    return
  fi
  shift $((i - 1)) words
  (( CURRENT -= i - 1 ))
  case $command in
${cases.join('\n')}
  esac
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _svc-gitops "$@"
else
  compdef _svc-gitops svc-gitops
fi
`;
}
