import {
  type CompletionModel,
  globalAfterCommand,
  type OptionModel,
  type ValueKind,
} from './completion-model.js';

const singleQuoted = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, `\\'`)}'`;

/** fish's flags for a value: a list (`-x -a`), files (`-r -F`), or a value with nothing offered (`-x`). */
function valueFlags(value: ValueKind): string {
  if (value.kind === 'choices') return ` -x -a ${singleQuoted(value.choices.join(' '))}`;
  if (value.kind === 'file') return ' -r -F';
  return ' -x';
}

function line(condition: string, o: OptionModel): string {
  const names = o.names.map((name) =>
    name.startsWith('--') ? `-l ${name.slice(2)}` : `-s ${name.slice(1)}`,
  );
  const value = o.value === undefined ? '' : valueFlags(o.value);
  return `complete -c svc-gitops -n ${singleQuoted(condition)} ${names.join(' ')}${value} -d ${singleQuoted(o.description)}`;
}

/**
 * The fish script: no file names unless a value names a path (`-f` first); the global options
 * before the command and after it; option values from their choices.
 */
export function fishScript(model: CompletionModel): string {
  const { commands, global } = model;
  const names = commands.map((c) => c.name).join(' ');
  const before = `not __fish_seen_subcommand_from ${names}`;
  return [
    '# fish completion for svc-gitops: svc-gitops completion fish > ~/.config/fish/completions/svc-gitops.fish',
    'complete -c svc-gitops -f',
    ...commands.map(
      (c) =>
        `complete -c svc-gitops -n ${singleQuoted(before)} -a ${c.name} -d ${singleQuoted(c.description)}`,
    ),
    ...global.map((o) => line(before, o)),
    ...commands.flatMap((c) => {
      const seen = `__fish_seen_subcommand_from ${c.name}`;
      const argument =
        c.argument === undefined || c.argument.kind === 'none'
          ? []
          : [
              `complete -c svc-gitops -n ${singleQuoted(seen)}${valueFlags(c.argument).replace(' -x', '').replace(' -r', '')}`,
            ];
      return [...argument, ...[...c.options, ...globalAfterCommand(model)].map((o) => line(seen, o))];
    }),
    '',
  ].join('\n');
}
