import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { EXIT, SvcError } from '../../errors.js';
import { loadSettings } from '../../settings/index.js';
import type { CliContext } from '../context.js';
import { packageFile } from '../package-files.js';
import { writeFileAtomic } from '../write-file.js';
import { importLive } from './import.js';

interface InitFlags {
  force?: boolean;
  import?: boolean;
}

const DESIRED_STATE = 'svc-gitops.yaml';
const SETTINGS_EXAMPLE = 'settings.example.json';
/** The templates `init` copies from the package's examples/github/, and where each goes. */
const TEMPLATES: ReadonlyArray<readonly [string, string]> = [
  ['svc-gitops-plan.yml', '.github/workflows/svc-gitops-plan.yml'],
  ['svc-gitops-apply.yml', '.github/workflows/svc-gitops-apply.yml'],
  ['svc-gitops-drift.yml', '.github/workflows/svc-gitops-drift.yml'],
  ['dependabot.yml', '.github/dependabot.yml'],
];
const templatePath = (name: string) => packageFile(`examples/github/${name}`);

/** Without a dashboard: a valid desired state that changes nothing until rules are added. */
const STARTER = `# svc-gitops desired state: ignore lists and update policies of the dashboard's sites.
# Format: schemas/svc-gitops.schema.json of the svc-gitops package; check with \`svc-gitops validate\`.
# \`svc-gitops import --out svc-gitops.yaml --force\` replaces this file with what the dashboard has today.
version: 1
ignores:
  # Live ignores no rule mentions are reported, never removed, until this says \`remove\`.
  unmanaged: report
  rules: []
  #  - sites: [all]
  #    plugins: [woocommerce/woocommerce.php]
updates: []
#  - name: routine
#    sites: [all]
#    kinds: [plugins, themes, translations]
#    max: minor
`;

/** Every setting a repository may keep in a file; credentials belong in the environment. */
const SETTINGS_EXAMPLE_TEXT = `${JSON.stringify(
  {
    _comment:
      'Copy to settings.json (or ~/.config/svc-mcp/settings.json) and adjust. Keep credentials out of files in Git: set SVC_USER and SVC_APP_PASSWORD (or SVC_TOKEN) in the environment or as CI secrets.',
    dashboardUrl: 'https://dashboard.example.com',
    safeMode: true,
    rateLimit: 60,
    concurrency: 4,
    planLifetimeMinutes: 60,
  },
  null,
  2,
)}\n`;

/**
 * `svc-gitops init`: sets up a repository: the desired state (imported from the dashboard when
 * one is configured), the plan, apply and drift workflows, and a settings example; then says what
 * to set as secrets. Every path is checked before anything is read or written, and the dashboard
 * is read before the first file is written, so a refusal or a failed read leaves nothing behind.
 */
export function registerInit(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('init')
    .description('set up this repository: desired state, GitHub workflows, Dependabot and a settings example')
    .option('--force', 'replace files that exist')
    .option('--no-import', 'write a starter desired state even when a dashboard is configured')
    .action(async (flags: InitFlags) => setExit(await init(ctx, flags)));
}

async function init(ctx: CliContext, flags: InitFlags): Promise<number> {
  const files = [DESIRED_STATE, ...TEMPLATES.map(([, path]) => path), SETTINGS_EXAMPLE];
  const existing = files.filter((path) => exists(ctx, path));
  if (exists(ctx, 'svc-gitops')) {
    throw new SvcError('USAGE', 'this repository already keeps its desired state in svc-gitops/', {
      hint: 'init writes svc-gitops.yaml; use the directory as it is, or move it away first',
    });
  }
  if (existing.length > 0 && !flags.force) {
    throw new SvcError(
      'USAGE',
      `${existing.join(', ')} already exist${existing.length === 1 ? 's' : ''}; nothing was written`,
      {
        hint: 'pass --force to replace them',
      },
    );
  }
  const templates = TEMPLATES.map(
    ([name, path]) => [path, ctx.fs.readFileSync(templatePath(name), 'utf8')] as const,
  );
  const imported = flags.import !== false && dashboardConfigured(ctx);
  // The desired state first: import reads the whole dashboard before it writes, so a failed read
  // leaves nothing behind.
  if (imported) {
    const code = await importLive(ctx, { out: DESIRED_STATE, force: flags.force === true });
    if (code !== EXIT.ok) return code;
  } else {
    writeFileAtomic(ctx.fs, ctx.cwd, DESIRED_STATE, [STARTER]);
  }
  for (const [path, text] of templates) writeFileAtomic(ctx.fs, ctx.cwd, path, [text]);
  writeFileAtomic(ctx.fs, ctx.cwd, SETTINGS_EXAMPLE, [SETTINGS_EXAMPLE_TEXT]);

  const origin = imported
    ? 'imported from the dashboard, as said above'
    : 'a starter that changes nothing (no dashboard configured: `svc-gitops import` fills it from one)';
  ctx.stdout.write(
    [
      `Wrote ${DESIRED_STATE} (${origin}),`,
      `  ${TEMPLATES.map(([, path]) => path).join(', ')},`,
      `  and ${SETTINGS_EXAMPLE}.`,
      '',
      'Next:',
      '  1. svc-gitops validate && svc-gitops plan      (with SVC_URL, SVC_USER, SVC_APP_PASSWORD set)',
      '  2. In the workflows, replace your-org/svc-gitops@000… with the owner and full commit SHA you use;',
      '     make the job "svc-gitops check" a required status check.',
      '  3. Repository secrets: SVC_URL, SVC_READONLY_USER, SVC_READONLY_APP_PASSWORD (a read-only user).',
      '  4. Environment svc-gitops-production (deployment branch: main) with secrets SVC_URL, SVC_USER,',
      '     SVC_APP_PASSWORD (a user that may change ignores and run updates).',
      "  5. Add .svc-gitops/ (apply's journal and lock) to .gitignore; commit the rest.",
      '',
    ].join('\n'),
  );
  return EXIT.ok;
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
