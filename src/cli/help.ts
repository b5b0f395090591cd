import { createRequire } from 'node:module';
import type { Command } from 'commander';
import { EXIT } from '../errors.js';
import { SETTING_ENV } from '../settings/index.js';

/**
 * The help text around commander's own: the workflow, examples, the environment and the exit
 * codes. The environment list is built from SETTING_ENV and the settings schema's descriptions,
 * so a new setting appears in `--help` without an edit here.
 */

/** Variables svc-gitops reads besides the settings. */
const OTHER_VARIABLES: ReadonlyArray<readonly [string, string]> = [
  ['SVC_DASHBOARD', 'The named dashboard of the settings file to use (as --dashboard NAME).'],
  ['SVC_GITOPS_STATE_DIR', 'Where apply keeps its journal and used plans (default .svc-gitops).'],
  ['SVC_GITOPS_DEBUG', 'Set to 1 to print the stack trace of an internal error.'],
  ['NO_COLOR', 'Set to anything to turn colour off (as --no-color); colour is used only on a terminal.'],
  [
    'GITHUB_TOKEN',
    'comment, drift --issue and status --issue: the token that writes the comment or the issue.',
  ],
];

/** Help is written for 80 columns (commander's own width when output is not a terminal). */
const HELP_WIDTH = 80;

/** `NAME  text` lines, names padded to one column, text wrapped under itself within HELP_WIDTH. */
function table(rows: ReadonlyArray<readonly [string, string]>): string {
  const width = Math.max(...rows.map(([name]) => name.length));
  const indent = ' '.repeat(width + 4);
  return rows
    .map(([name, text]) => {
      const lines: string[] = [];
      let line = '';
      for (const word of text.split(' ')) {
        if (line !== '' && indent.length + line.length + 1 + word.length > HELP_WIDTH) {
          lines.push(line);
          line = word;
        } else line = line === '' ? word : `${line} ${word}`;
      }
      lines.push(line);
      return `  ${name.padEnd(width)}  ${lines.join(`\n${indent}`)}`;
    })
    .join('\n');
}

/** The first sentence of a schema description, without its trailing "Env SVC_…" mention. */
function firstSentence(description: string): string {
  const text = description.replace(/\s*Env SVC_\w+\.?\s*$/, '').trim();
  const end = text.search(/\.(\s|$)/);
  return end === -1 ? text : text.slice(0, end + 1);
}

export function environmentHelp(): string {
  // The schema is a package asset two levels above this file, in src/ and dist/ alike.
  const schema = createRequire(import.meta.url)('../../schemas/settings.schema.json') as {
    properties: Record<string, { description?: string }>;
  };
  const properties = schema.properties;
  const settings = Object.entries(SETTING_ENV).map(
    ([key, variable]) => [variable, firstSentence(properties[key]?.description ?? '')] as const,
  );
  return table([...settings, ...OTHER_VARIABLES]);
}

export const EXIT_CODES_HELP = table([
  [String(EXIT.ok), 'success; with --detailed-exitcode: no changes'],
  [String(EXIT.error), 'error: invalid config, refused approval, dashboard error, a failed action'],
  [String(EXIT.changes), 'with --detailed-exitcode: the plan has changes; drift: the dashboard drifted'],
  [
    String(EXIT.halted),
    'plan, drift, apply: the rollout is halted (a wave has unhealthy sites; the waves after it wait)',
  ],
  [
    String(EXIT.vulnerable),
    'plan, drift with --fail-on-vulnerable: the plan lists sites vulnerable with no fix',
  ],
  [String(EXIT.interrupted), 'interrupted (SIGINT/SIGTERM): calls in flight finished, journal written'],
]);

/** Examples for each command: `[command line, what it does]`. */
export const EXAMPLES: Readonly<Record<string, ReadonlyArray<readonly [string, string]>>> = {
  init: [
    ['svc-gitops init', 'desired state, workflow templates and a settings example in this repository'],
    ['svc-gitops init --force', 'the same, replacing files that exist'],
  ],
  import: [
    ['svc-gitops import --out svc-gitops.yaml', "adopt the dashboard's ignore lists as they are today"],
  ],
  validate: [
    ['svc-gitops validate', 'check svc-gitops.yaml (or svc-gitops/) without the dashboard'],
    ['svc-gitops validate -c fleets/prod.yaml --format json', 'diagnostics as JSON'],
  ],
  plan: [
    ['svc-gitops plan', 'what apply would change'],
    ['svc-gitops plan --out plan.json', 'and save it for `svc-gitops apply plan.json`'],
    ['svc-gitops plan --target shop.example.com --format markdown', 'one site, as a PR comment shows it'],
    ['svc-gitops plan --detailed-exitcode', 'exit 2 when there are changes (for scripts)'],
  ],
  show: [['svc-gitops show plan.json', 'a saved plan, without contacting the dashboard']],
  apply: [
    ['svc-gitops apply', 'plan now, show it, ask for yes'],
    ['svc-gitops apply plan.json', 'exactly the saved plan, if the dashboard has not moved'],
    ['svc-gitops apply --dry-run --format json', 'the calls apply would send, as JSON, sending none'],
    ['svc-gitops apply --resume', 'finish an interrupted apply'],
  ],
  comment: [['svc-gitops comment --dry-run', 'print the pull-request comment instead of posting it']],
  drift: [['svc-gitops drift --issue', 'open or update the drift issue (in GitHub Actions)']],
  status: [
    ['svc-gitops status', 'what is pending, soaking until when, held and why, per item'],
    ['svc-gitops status --issue', 'keep the dashboard issue up to date (in GitHub Actions)'],
  ],
  history: [
    ['svc-gitops history --site 23 --since 7d', 'what the applies of the last week did on site 23'],
    ['svc-gitops history --item akismet/akismet.php --format json', "one plugin's history, for a script"],
  ],
  completion: [
    ['source <(svc-gitops completion bash)', 'bash: add the line to ~/.bashrc'],
    ['svc-gitops completion zsh > ~/.zfunc/_svc-gitops', 'zsh: with fpath+=(~/.zfunc) before compinit'],
    ['svc-gitops completion fish > ~/.config/fish/completions/svc-gitops.fish', 'fish'],
  ],
  mcp: [
    ['svc-gitops mcp', 'the tool server for an AI client, over stdio'],
    ['svc-gitops mcp --http 8765', 'over Streamable HTTP on 127.0.0.1 (needs SVC_HTTP_TOKEN)'],
    ['svc-gitops mcp --chdir ~/fleet-repo', 'work there, whichever directory the client starts it in'],
    [
      'svc-gitops mcp --namespace mainwp',
      "in place of the dashboard vendor's own server (MAINWP_* variables)",
    ],
  ],
  sandbox: [
    ['svc-gitops sandbox > sandbox.env &', 'a local dashboard; `set -a; . ./sandbox.env; set +a` to use it'],
    ['svc-gitops sandbox --profile next', 'the next release: dry_run/confirm/preview tokens'],
    [
      'svc-gitops sandbox --generate sites=10000,pending=6,ignored=3',
      'a generated 10,000-site fleet, no file needed',
    ],
    [
      'svc-gitops sandbox --quirk restListFlatCapped=off --quirk siteNotFound403=off',
      'compat-6.1 with two of its quirks off',
    ],
    ['svc-gitops sandbox --surfaces rest', 'a dashboard without the abilities API'],
  ],
};

function examples(name: string): string {
  const rows = (EXAMPLES[name] ?? []).map(([line, what]) => [`$ ${line}`, what] as const);
  // Long command lines take a line of their own, with the description under them.
  return rows.map(([line, what]) => `  ${line}\n      ${what}`).join('\n');
}

/** Adds the examples to each subcommand and the workflow, environment and exit codes to the program. */
export function addHelpSections(program: Command): void {
  for (const command of program.commands) {
    if (EXAMPLES[command.name()] !== undefined)
      command.addHelpText('after', `\nExamples:\n${examples(command.name())}\n`);
  }
  program.addHelpText('after', () =>
    [
      '',
      'Workflow: init (or import) → validate → plan → apply; comment and drift in CI.',
      '',
      'Examples:',
      '  $ svc-gitops init',
      '  $ svc-gitops validate',
      '  $ svc-gitops plan --out plan.json',
      '  $ svc-gitops apply plan.json',
      '',
      'Environment (each setting may also be a key of ./settings.json or',
      '~/.config/svc-mcp/settings.json; see schemas/settings.schema.json):',
      environmentHelp(),
      '',
      'Exit codes:',
      EXIT_CODES_HELP,
      '',
      "Run `svc-gitops <command> --help` for a command's options and examples.",
      '',
    ].join('\n'),
  );
}
