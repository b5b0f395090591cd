import type { Command } from 'commander';
import { fishScript } from './completion-fish.js';
import {
  type CompletionModel,
  completionModel,
  globalAfterCommand,
  type OptionModel,
  type ValueKind,
} from './completion-model.js';
import { zshScript } from './completion-zsh.js';

/**
 * Shell completion scripts (bash, zsh, fish) generated from the commander program itself. Option
 * values complete from their choices, as paths when they name one, else not at all (a port or a
 * site name is never completed as a file name); the command is found past the global options
 * and their values (`--dashboard prod plan --fo<TAB>`).
 */

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** A word list for `compgen -W`: the words are option names and choices, never user text. */
const words = (list: readonly string[]) => list.join(' ');
const singleQuoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** Bash: what to offer for a value of this kind, then return. */
function bashReply(value: ValueKind): string {
  if (value.kind === 'choices')
    return `COMPREPLY=($(compgen -W ${singleQuoted(words(value.choices))} -- "$cur")); _svc_gitops_nodefault; return`;
  if (value.kind === 'file') return 'COMPREPLY=($(compgen -f -- "$cur")); return';
  return '_svc_gitops_nodefault; return';
}

const takingValue = (options: readonly OptionModel[]) => options.filter((o) => o.value !== undefined);

function bash(model: CompletionModel): string {
  const { commands, global } = model;
  const after = globalAfterCommand(model);
  const globalValues = takingValue(global).flatMap((o) => o.names);
  const valueCases = [
    ...commands.flatMap((command) =>
      takingValue([...command.options, ...after]).map(
        (o) =>
          `    ${o.names.map((name) => `${command.name}:${name}`).join('|')}) ${bashReply(o.value as ValueKind)} ;;`,
      ),
    ),
    ...takingValue(global).map(
      (o) => `    ${o.names.map((name) => `:${name}`).join('|')}) ${bashReply(o.value as ValueKind)} ;;`,
    ),
  ];
  const argumentCases = commands.map(
    (command) =>
      `    ${command.name}) ${command.argument ? bashReply(command.argument) : '_svc_gitops_nodefault; return'} ;;`,
  );
  const optionCases = commands.map(
    (command) =>
      `    ${command.name}) COMPREPLY=($(compgen -W ${singleQuoted(words([...command.options, ...after].flatMap((o) => o.names)))} -- "$cur")) ;;`,
  );
  return `# bash completion for svc-gitops: source <(svc-gitops completion bash)
# Outside a completion (a test calling the function) compopt fails; that changes nothing.
_svc_gitops_nodefault() { compopt +o default 2>/dev/null; }
_svc_gitops() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" command="" i
  # The command is the first word that is neither an option nor a global option's value.
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in
      ${globalValues.length > 0 ? `${globalValues.join('|')}) i=$((i + 1)) ;;` : ''}
      -*) ;;
      *) command="\${COMP_WORDS[i]}"; break ;;
    esac
  done
  case "$command:$prev" in
${valueCases.join('\n')}
  esac
  if [[ -z "$command" ]]; then
    COMPREPLY=($(compgen -W ${singleQuoted(words([...commands.map((c) => c.name), ...global.flatMap((o) => o.names)]))} -- "$cur"))
    _svc_gitops_nodefault
    return
  fi
  if [[ "$cur" != -* ]]; then
    case "$command" in
${argumentCases.join('\n')}
    esac
    return
  fi
  case "$command" in
${optionCases.join('\n')}
  esac
  _svc_gitops_nodefault
}
complete -o default -F _svc_gitops svc-gitops
`;
}

export function completionScript(program: Command, shell: Shell): string {
  const model = completionModel(program);
  return { bash, zsh: zshScript, fish: fishScript }[shell](model);
}
