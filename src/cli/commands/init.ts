import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { EXIT } from '../../errors.js';
import { loadSettings } from '../../settings/index.js';
import type { CliContext } from '../context.js';
import { jsonLine, type TextOrJson, textOrJsonOption } from '../format-option.js';
import { packageFile } from '../package-files.js';
import { writeFileAtomic } from '../write-file.js';
import { importLive } from './import.js';
import { SETTINGS_EXAMPLE_TEXT, STARTER, stateDirLine, withIgnoreLine } from './init-files.js';

interface InitFlags {
  force?: boolean;
  import?: boolean;
  format: TextOrJson;
}

const DESIRED_STATE = 'svc-gitops.yaml';
const SETTINGS_EXAMPLE = 'settings.example.json';
const GITIGNORE = '.gitignore';
/** The templates `init` copies from the package's examples/github/, and where each goes. */
const TEMPLATES: ReadonlyArray<readonly [string, string]> = [
  ['svc-gitops-plan.yml', '.github/workflows/svc-gitops-plan.yml'],
  ['svc-gitops-apply.yml', '.github/workflows/svc-gitops-apply.yml'],
  ['svc-gitops-drift.yml', '.github/workflows/svc-gitops-drift.yml'],
  ['dependabot.yml', '.github/dependabot.yml'],
];
const templatePath = (name: string) => packageFile(`examples/github/${name}`);

/**
 * `svc-gitops init`: sets up a repository: the desired state (imported from the dashboard when
 * one is configured), the plan, apply and drift workflows, a settings example and the
 * `.gitignore` line for apply's state; then says what to set as secrets. It writes only the files
 * that are missing, so running it again after an upgrade adds what is new and keeps every edit;
 * `--force` replaces them all (`.gitignore` is only ever added to). The dashboard is read before
 * the first file is written, so a failed read leaves nothing behind.
 */
export function registerInit(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('init')
    .description('set up this repository: desired state, GitHub workflows, Dependabot and a settings example')
    .option('--force', 'replace the files init writes that exist (by default only missing ones are written)')
    .option('--no-import', 'write a starter desired state even when a dashboard is configured')
    .addOption(textOrJsonOption('what was written and kept'))
    .action(async (flags: InitFlags) => setExit(await init(ctx, flags)));
}

async function init(ctx: CliContext, flags: InitFlags): Promise<number> {
  const wanted = (path: string) => flags.force === true || !exists(ctx, path);
  // A desired state kept as a directory is the repository's own: never written over.
  const desired = !exists(ctx, 'svc-gitops') && wanted(DESIRED_STATE);
  const templates = TEMPLATES.filter(([, path]) => wanted(path)).map(
    ([name, path]) => [path, ctx.fs.readFileSync(templatePath(name), 'utf8')] as const,
  );
  const example = wanted(SETTINGS_EXAMPLE);
  const ignore = gitignoreUpdate(ctx);
  const imported = desired && flags.import !== false && dashboardConfigured(ctx);
  // The desired state first: import reads the whole dashboard before it writes, so a failed read
  // leaves nothing behind.
  if (imported) {
    const code = await importLive(ctx, { out: DESIRED_STATE, force: flags.force === true });
    if (code !== EXIT.ok) return code;
  } else if (desired) {
    writeFileAtomic(ctx.fs, ctx.cwd, DESIRED_STATE, [STARTER]);
  }
  for (const [path, text] of templates) writeFileAtomic(ctx.fs, ctx.cwd, path, [text]);
  if (example) writeFileAtomic(ctx.fs, ctx.cwd, SETTINGS_EXAMPLE, [SETTINGS_EXAMPLE_TEXT]);
  if (ignore) writeFileAtomic(ctx.fs, ctx.cwd, GITIGNORE, [ignore.text]);

  const written = [
    ...(desired ? [DESIRED_STATE] : []),
    ...templates.map(([path]) => path),
    ...(example ? [SETTINGS_EXAMPLE] : []),
    ...(ignore ? [`${GITIGNORE} (${ignore.line})`] : []),
  ];
  const kept = [
    ...(exists(ctx, 'svc-gitops') ? ['svc-gitops/'] : []),
    ...[DESIRED_STATE, ...TEMPLATES.map(([, path]) => path), SETTINGS_EXAMPLE].filter(
      (path) => !written.includes(path) && !(path === DESIRED_STATE && exists(ctx, 'svc-gitops')),
    ),
  ];
  if (flags.format === 'json') {
    ctx.stdout.write(
      jsonLine({
        kind: 'init',
        written: written.map((entry) => entry.replace(/ \(.*\)$/, '')),
        kept,
        desired_state: desired ? (imported ? 'imported' : 'starter') : 'kept',
        gitignore: ignore?.line ?? null,
      }),
    );
  } else {
    ctx.stdout.write(summary(written, kept, desired ? imported : undefined));
  }
  return EXIT.ok;
}

/** What init did and what to do next, on stdout. `imported` is undefined when no desired state was written. */
function summary(written: string[], kept: string[], imported: boolean | undefined): string {
  const origin =
    imported === undefined
      ? ''
      : imported
        ? `${DESIRED_STATE}: imported from the dashboard, as said above.\n`
        : `${DESIRED_STATE}: a starter that changes nothing (no dashboard configured: \`svc-gitops import --out ${DESIRED_STATE} --force\` fills it from one).\n`;
  return [
    written.length > 0 ? `Wrote ${written.join(', ')}.` : 'Wrote nothing: every file init writes is here.',
    ...(kept.length > 0 ? [`Kept ${kept.join(', ')} as they are (--force replaces them).`] : []),
    `${origin}`,
    'Next:',
    '  1. svc-gitops validate && svc-gitops plan      (with SVC_URL, SVC_USER, SVC_APP_PASSWORD set)',
    '  2. In the workflows, replace your-org/svc-gitops@000… with the owner and full commit SHA you use;',
    '     make the job "svc-gitops check" a required status check.',
    '  3. Repository secrets: SVC_URL, SVC_READONLY_USER, SVC_READONLY_APP_PASSWORD (a read-only user).',
    '  4. Environment svc-gitops-production (deployment branch: main) with secrets SVC_URL, SVC_USER,',
    '     SVC_APP_PASSWORD (a user that may change ignores and run updates).',
    '  5. Commit these files.',
    '',
  ].join('\n');
}

/** The `.gitignore` text with the state directory's line added, when it lacks one. */
function gitignoreUpdate(ctx: CliContext): { text: string; line: string } | undefined {
  const line = stateDirLine(ctx);
  if (line === undefined) return undefined;
  let current = '';
  try {
    current = ctx.fs.readFileSync(resolve(ctx.cwd, GITIGNORE), 'utf8');
  } catch {
    // no .gitignore yet: init starts one
  }
  const text = withIgnoreLine(current, line);
  return text === undefined ? undefined : { text, line };
}

function exists(ctx: CliContext, path: string): boolean {
  try {
    ctx.fs.lstatSync(resolve(ctx.cwd, path));
    return true;
  } catch {
    return false;
  }
}

/** A dashboard URL from the environment or a settings file: then init imports from it. */
function dashboardConfigured(ctx: CliContext): boolean {
  const { settings } = loadSettings({
    env: ctx.env,
    cwd: ctx.cwd,
    fs: ctx.fs,
    homeDir: ctx.env.HOME ?? homedir(),
  });
  return settings.dashboardUrl !== '';
}
