import { relative, resolve, sep } from 'node:path';
import { stateDirOf } from '../../index.js';
import type { CliContext } from '../context.js';
import { publishedSchemaUrl } from '../version.js';

/** Without a dashboard: a valid desired state that changes nothing until rules are added. */
export const STARTER = `# yaml-language-server: $schema=${publishedSchemaUrl('svc-gitops.schema.json')}
# svc-gitops desired state: ignore lists and update policies of the dashboard's sites.
# Check it with \`svc-gitops validate\`.
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

/**
 * The settings a repository may keep in a file. Only what a newcomer changes first: every limit
 * (concurrency, rate limit, timeouts) is left to its default, which adapts to the dashboard; a
 * fixed rate limit here would slow a large fleet's plan to minutes. Credentials belong in the
 * environment.
 */
export const SETTINGS_EXAMPLE_TEXT = `${JSON.stringify(
  {
    _comment:
      'Copy to settings.json (or ~/.config/svc-mcp/settings.json) and adjust. Every other key (schemas/settings.schema.json of the package) has a default that fits most dashboards. Keep credentials out of files in Git: set SVC_USER and SVC_APP_PASSWORD (or SVC_TOKEN) in the environment or as CI secrets.',
    dashboardUrl: 'https://dashboard.example.com',
    safeMode: true,
    planLifetimeMinutes: 60,
  },
  null,
  2,
)}\n`;

/**
 * The `.gitignore` line for apply's state directory (journal, used-plan records), or undefined
 * when that directory is outside the repository. SVC_GITOPS_STATE_DIR moves it, as for apply.
 */
export function stateDirLine(ctx: CliContext): string | undefined {
  const dir = resolve(ctx.cwd, stateDirOf(ctx.env));
  const path = relative(ctx.cwd, dir).split(sep).join('/');
  if (path === '' || path.startsWith('..') || /[\s\u0000-\u001f\u007f*?[\]!#\\]/.test(path)) return undefined;
  return `/${path}/`;
}

/** `.gitignore` with `line` added, or undefined when a line of it already names that directory. */
export function withIgnoreLine(current: string, line: string): string | undefined {
  const bare = line.replace(/^\/|\/$/g, '');
  const names = new Set([bare, `${bare}/`, `/${bare}`, `/${bare}/`]);
  if (current.split(/\r?\n/).some((entry) => names.has(entry.trim()))) return undefined;
  const separator = current === '' || current.endsWith('\n') ? '' : '\n';
  return `${current}${separator}# svc-gitops apply's journal and used-plan records (per machine)\n${line}\n`;
}
