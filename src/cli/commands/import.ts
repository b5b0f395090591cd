import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import {
  DESIRED_STATE_SCHEMA_URL,
  importDesiredState,
  LIMITS,
  normaliseAddress,
} from '../../engine/index.js';
import { EXIT, SvcError } from '../../errors.js';
import { safeText } from '../../render/index.js';
import type { CliContext } from '../context.js';
import { jsonLine, type TextOrJson, textOrJsonOption } from '../format-option.js';
import { openDashboard } from '../pipeline.js';
import { publishedSchemaUrl } from '../version.js';
import { writeFileAtomic } from '../write-file.js';

interface ImportFlags {
  out?: string;
  force?: boolean;
  format?: TextOrJson;
}

/**
 * `svc-gitops import`: writes desired-state YAML that adopts the dashboard's current per-site
 * ignore lists, so `import` followed by `plan` shows no ignore changes.
 */
export function registerImport(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('import')
    .description('write a desired state that adopts the live ignore lists (a starting point for a new repo)')
    .option(
      '-o, --out <path>',
      'write to this file instead of stdout; a path ending in / is a directory of files (for fleets past the 4 MiB file limit)',
    )
    .option('--force', 'overwrite an existing file')
    .addOption(textOrJsonOption('the counts, and the YAML unless --out wrote it'))
    .action(async (flags: ImportFlags) => setExit(await importLive(ctx, flags)));
}

export async function importLive(ctx: CliContext, flags: ImportFlags): Promise<number> {
  // Checked before any dashboard call, so a refusal costs no read.
  refuseToOverwrite(ctx, flags);
  const { client } = openDashboard(ctx);
  try {
    // The tags, where the dashboard offers them: a rule on exactly a tag's sites names the tag.
    const live = await client.readLive({ signal: ctx.signal, groups: { tags: 'if-offered' } });
    // The header's schema reference is relative to where the files are written.
    const schemaRef = schemaRefFor(
      ctx,
      flags.out && isDirectoryOut(flags.out) ? join(flags.out, '00-svc-gitops.yaml') : flags.out,
    );
    const { yaml, files, adopted, unmanaged, bytes, fits } = importDesiredState(
      live,
      { addressOf: normaliseAddress, safe: safeText },
      {
        dashboardUrl: live.dashboardUrl,
        schemaRef: schemaRef ?? publishedSchemaUrl('svc-gitops.schema.json'),
      },
    );
    const left = unmanaged > 0 ? `, ${unmanaged} left unmanaged (listed in its header)` : '';
    const counts = { kind: 'import', sites: live.sites.length, adopted, unmanaged };
    if (flags.out && isDirectoryOut(flags.out)) {
      refuseToOverwrite(ctx, flags);
      const dir = resolve(ctx.cwd, flags.out);
      ctx.fs.mkdirSync(dir, { recursive: true });
      for (const file of files) writeFileAtomic(ctx.fs, dir, file.name, [file.yaml]);
      if (flags.format === 'json')
        ctx.stdout.write(jsonLine({ ...counts, out: flags.out, files: files.map((file) => file.name) }));
      ctx.stderr.write(
        `Wrote ${files.length} files to ${flags.out}: ${live.sites.length} sites, ${adopted} per-site ignores adopted${left}. Check it with: svc-gitops plan -c ${flags.out}\n`,
      );
      return EXIT.ok;
    }
    // A file beyond the limit would be refused by every command that reads it: say so now.
    if (!fits) {
      throw new SvcError(
        'UNSUPPORTED',
        `the imported desired state would be ${bytes} bytes, more than the ${LIMITS.maxFileBytes} bytes (4 MiB) a desired-state file may hold; nothing was written`,
        {
          hint: 'write it as a directory of files instead: --out svc-gitops/ (a path ending in /)',
        },
      );
    }
    if (flags.out) {
      // Again: the file may have appeared while the dashboard was read (a large fleet takes a while).
      refuseToOverwrite(ctx, flags);
      const saved = writeFileAtomic(ctx.fs, ctx.cwd, flags.out, [yaml]);
      if (flags.format === 'json')
        ctx.stdout.write(jsonLine({ ...counts, out: flags.out, files: [flags.out] }));
      ctx.stderr.write(
        `Wrote ${saved}: ${live.sites.length} sites, ${adopted} per-site ignores adopted${left}. Check it with: svc-gitops plan -c ${flags.out}\n`,
      );
    } else {
      ctx.stdout.write(flags.format === 'json' ? jsonLine({ ...counts, yaml }) : yaml);
    }
    return EXIT.ok;
  } finally {
    await client.close();
  }
}

/** `--out DIR/`: a trailing separator asks for a directory of files. */
function isDirectoryOut(out: string): boolean {
  return out.endsWith('/') || out.endsWith(sep);
}

/**
 * Without --force an existing path is never replaced: a file, a directory, or a symlink, even one
 * whose target is missing (the rename would replace the link). `resolve` so an absolute --out is
 * checked where it is written.
 */
function refuseToOverwrite(ctx: CliContext, flags: ImportFlags): void {
  if (!flags.out) return;
  const target = resolve(ctx.cwd, flags.out);
  let stat: ReturnType<typeof ctx.fs.lstatSync> | undefined;
  try {
    stat = ctx.fs.lstatSync(target);
  } catch {
    stat = undefined; // missing, or not reachable: the write then says why
  }
  if (isDirectoryOut(flags.out)) {
    // A directory of files: an empty or new one, or any with --force (files of the same names
    // are replaced; others stay, and a directory config would read them too).
    if (stat && !stat.isDirectory()) throw new SvcError('USAGE', `${flags.out} is not a directory`);
    if (stat && !flags.force && ctx.fs.readdirSync(target).length > 0)
      throw new SvcError('USAGE', `${flags.out} is not empty`, {
        hint: 'pass --force to write into it anyway',
      });
    return;
  }
  // --force cannot replace a directory: saying "pass --force" would only lead to a second error.
  if (stat?.isDirectory()) {
    throw new SvcError('USAGE', `${flags.out} is a directory`, {
      hint: `name a file, e.g. --out ${join(flags.out, 'svc-gitops.yaml')}, or the directory with a trailing / to write a directory of files`,
    });
  }
  if (stat && !flags.force)
    throw new SvcError('USAGE', `${flags.out} exists`, { hint: 'pass --force to overwrite it' });
}

/**
 * The editor's `$schema` reference: this installation's schema when the YAML is written inside
 * the installation (a clone's examples); else undefined, and the header names the schema of this
 * release at its published address (a global install has no `node_modules` in the repository).
 * A path out of the output's folder (`../../home/…`) would hold this machine's layout, and the
 * file is committed: it must resolve on every checkout, so it never leaves the folder.
 */
function schemaRefFor(ctx: CliContext, out: string | undefined): string | undefined {
  const from = out ? dirname(resolve(ctx.cwd, out)) : ctx.cwd;
  const path = relative(from, fileURLToPath(DESIRED_STATE_SCHEMA_URL)).split(sep).join('/');
  // In a comment line, a line break or other control character (or a space, which ends the
  // reference) would break out of it.
  if (path.startsWith('..') || isAbsolute(path) || /[\s\u0000-\u001f\u007f]/.test(path)) return undefined;
  return `./${path}`;
}
