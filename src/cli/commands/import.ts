import { resolve } from 'node:path';
import type { Command } from 'commander';
import { renderImportYaml } from '../../config/index.js';
import { EXIT, SvcError } from '../../errors.js';
import { normaliseAddress } from '../../plan/index.js';
import { safeText } from '../../render/safe-text.js';
import type { CliContext } from '../context.js';
import { openDashboard } from '../pipeline.js';
import { writeFileAtomic } from '../write-file.js';

interface ImportFlags {
  out?: string;
  force?: boolean;
}

/**
 * `svc-gitops import`: writes desired-state YAML that adopts the dashboard's current per-site
 * ignore lists, so `import` followed by `plan` shows no ignore changes.
 */
export function registerImport(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('import')
    .description('write a desired state that adopts the live ignore lists (a starting point for a new repo)')
    .option('-o, --out <file>', 'write to this file instead of stdout')
    .option('--force', 'overwrite an existing file')
    .action(async (flags: ImportFlags) => setExit(await importLive(ctx, flags)));
}

export async function importLive(ctx: CliContext, flags: ImportFlags): Promise<number> {
  // Checked before any dashboard call; `resolve` so an absolute --out is checked where it is written.
  if (flags.out && !flags.force && ctx.fs.existsSync(resolve(ctx.cwd, flags.out))) {
    throw new SvcError('USAGE', `${flags.out} exists`, { hint: 'pass --force to overwrite it' });
  }
  const { client } = openDashboard(ctx);
  try {
    const live = await client.readLive({ signal: ctx.signal });
    const yaml = renderImportYaml(
      live,
      { addressOf: normaliseAddress, safe: safeText },
      { dashboardUrl: live.dashboardUrl },
    );
    if (flags.out) {
      const saved = writeFileAtomic(ctx.fs, ctx.cwd, flags.out, [yaml]);
      ctx.stderr.write(
        `Wrote ${saved}: ${live.sites.length} sites, ${live.ignores.length} live ignores adopted. Check it with: svc-gitops plan -c ${flags.out}\n`,
      );
    } else {
      ctx.stdout.write(yaml);
    }
    return EXIT.ok;
  } finally {
    await client.close();
  }
}
