/**
 * The desired-state files of a pull request's base, read from git: the merge base of a ref and
 * HEAD, and at that commit the config file, or the files directly inside the config directory
 * (as the loader reads a directory). They are written into a temporary directory laid out like
 * the repository, so the loader shows them under the same names (`svc-gitops.yaml:12`) as the
 * head's files. Nothing else of the repository is read, and the working tree is never touched.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { SvcError } from '../errors.js';
import { runGit } from './run-git.js';

export interface BaseConfigOptions {
  /** The working directory the head's config path is relative to (inside the repository). */
  cwd: string;
  /** The head's config path (file or directory), relative to `cwd` or absolute. */
  configPath: string;
  /** A branch, tag or commit; the files come from its merge base with HEAD. */
  ref: string;
  signal?: AbortSignal;
}

export interface BaseConfig {
  /** The ref as given. */
  ref: string;
  /** The merge base of `ref` and HEAD (full commit id). */
  commit: string;
  /** Stands in for `cwd` at that commit: load `configPath` relative to it. */
  cwd: string;
  /** The config path relative to `cwd`, as the head's loader names it. */
  configPath: string;
  /** False when the config path does not exist at the merge base (the pull request adds it). */
  exists: boolean;
  /** Removes the temporary directory. */
  dispose(): void;
}

/** A commit id git printed: hex only, so it is safe to pass back as an argument. */
const COMMIT = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * Reads the base's desired-state files (see the module comment). IO_ERROR when git is missing,
 * `cwd` is not in a repository, or `ref` is unknown or shares no history with HEAD (a shallow
 * clone: fetch the base with its history); USAGE when the config lies outside the repository.
 */
export async function readBaseConfig(options: BaseConfigOptions): Promise<BaseConfig> {
  const { cwd, ref, signal } = options;
  if (ref === '' || ref.startsWith('-')) {
    throw new SvcError('USAGE', `--compare-to ${JSON.stringify(ref)}: not a git ref`);
  }
  const top = text(await runGit(cwd, ['rev-parse', '--show-toplevel'], signal));
  const commit = text(
    await runGit(cwd, ['merge-base', '--', ref, 'HEAD'], signal).catch((error: unknown) => {
      throw new SvcError('IO_ERROR', `cannot find the merge base of ${ref} and HEAD`, {
        hint: 'fetch the base branch with its history (actions/checkout: fetch-depth: 0), or name a commit this clone has',
        cause: error,
      });
    }),
  );
  if (!COMMIT.test(commit)) throw new SvcError('IO_ERROR', `git merge-base printed no commit for ${ref}`);
  const absolute = resolve(cwd, options.configPath);
  const inRepo = relative(realpathOrSelf(top), realpathOrSelf(absolute));
  if (inRepo.startsWith('..') || isAbsolute(inRepo)) {
    throw new SvcError('USAGE', `${options.configPath} is outside the git repository at ${top}`);
  }
  const cwdInRepo = relative(realpathOrSelf(top), realpathOrSelf(cwd));
  const root = mkdtempSync(join(tmpdir(), 'svc-gitops-base-'));
  const dispose = () => rmSync(root, { recursive: true, force: true });
  try {
    const files = await filesAt(top, commit, toGitPath(inRepo), signal);
    for (const file of files) {
      const target = join(root, ...file.path.split('/'));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, file.bytes);
    }
    const baseCwd = join(root, cwdInRepo);
    mkdirSync(baseCwd, { recursive: true });
    return {
      ref,
      commit,
      cwd: baseCwd,
      configPath: relative(cwd, absolute) || '.',
      exists: files.length > 0,
      dispose,
    };
  } catch (error) {
    dispose();
    throw error;
  }
}

/** The blob at `path`, or the blobs directly inside the tree at `path`; none when it is absent. */
async function filesAt(
  top: string,
  commit: string,
  path: string,
  signal: AbortSignal | undefined,
): Promise<Array<{ path: string; bytes: Buffer }>> {
  // `path` and `path/`: the entry itself, then (for a tree) its direct children.
  const entries = [
    ...parseTree(await runGit(top, ['ls-tree', '-z', '--full-tree', commit, '--', path], signal)),
  ];
  const tree = entries.find((entry) => entry.path === path && entry.type === 'tree');
  const blobs = tree
    ? parseTree(await runGit(top, ['ls-tree', '-z', '--full-tree', commit, '--', `${path}/`], signal))
    : entries;
  const out: Array<{ path: string; bytes: Buffer }> = [];
  for (const entry of blobs) {
    if (entry.type !== 'blob' || !COMMIT.test(entry.object)) continue;
    const { stdout } = await runGit(top, ['cat-file', 'blob', entry.object], signal);
    out.push({ path: entry.path, bytes: stdout });
  }
  return out;
}

interface TreeEntry {
  type: string;
  object: string;
  path: string;
}

/** `ls-tree -z` lines: `<mode> SP <type> SP <object> TAB <path> NUL`. */
function parseTree({ stdout }: { stdout: Buffer }): TreeEntry[] {
  return stdout
    .toString('utf8')
    .split('\0')
    .filter((line) => line !== '')
    .map((line) => {
      const tab = line.indexOf('\t');
      const [, type = '', object = ''] = line.slice(0, tab).split(' ');
      return { type, object, path: line.slice(tab + 1) };
    });
}

function text({ stdout }: { stdout: Buffer }): string {
  return stdout.toString('utf8').trim();
}

function toGitPath(path: string): string {
  return path === '' ? '.' : path.split(sep).join('/');
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
