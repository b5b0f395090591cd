import type * as nodeFs from 'node:fs';
import { dirname, resolve } from 'node:path';
import { SvcError } from '../errors.js';

/**
 * Writes a whole file or nothing: the text goes to a temporary sibling that is renamed over the
 * target, so an interrupted run never leaves a truncated plan or config behind.
 */
export function writeFileAtomic(
  fs: typeof nodeFs,
  cwd: string,
  path: string,
  chunks: Iterable<string>,
): string {
  const target = resolve(cwd, path);
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(dirname(target), { recursive: true });
    const fd = fs.openSync(temporary, 'w', 0o644);
    try {
      for (const chunk of chunks) fs.writeSync(fd, chunk);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, target);
    return target;
  } catch (error) {
    try {
      fs.rmSync(temporary, { force: true });
    } catch {
      // nothing more to clean up
    }
    throw new SvcError('IO_ERROR', `cannot write ${path}: ${writeProblem(fs, target, error)}`, {
      hint: 'choose another path for --out',
      cause: error,
    });
  }
}

/**
 * Refuses an output path that names the desired state being read (or a YAML file inside a
 * desired-state directory): `plan --out svc-gitops.yaml` would silently replace the config with
 * JSON. Checked before the dashboard is contacted, so the mistake costs nothing.
 */
export function refuseConfigAsOutput(fs: typeof nodeFs, cwd: string, out: string, configPath: string): void {
  const target = resolve(cwd, out);
  const config = resolve(cwd, configPath);
  const inConfigDir = isDirectory(fs, config) && dirname(target) === config && /\.ya?ml$/i.test(target);
  const problem =
    target === config || sameFile(fs, target, config)
      ? `would overwrite the desired state ${configPath}`
      : inConfigDir
        ? `is a YAML file in the desired-state directory ${configPath}, which would read it as config`
        : undefined;
  if (problem) {
    throw new SvcError('USAGE', `--out ${out} ${problem}`, {
      hint: 'write the output to a file of its own, e.g. --out plan.json',
    });
  }
}

/**
 * Checks before anything changes that a report can be written where `--out` says: a command
 * that changes the dashboard must not fail afterwards, on a typo in a path, and exit 1 on a
 * successful run.
 */
export function checkWritableOutput(fs: typeof nodeFs, cwd: string, out: string): void {
  const target = resolve(cwd, out);
  const problem = isDirectory(fs, target)
    ? 'it is a directory'
    : !isDirectory(fs, dirname(target))
      ? `the directory ${dirname(target)} does not exist`
      : !writable(fs, dirname(target))
        ? `the directory ${dirname(target)} is not writable`
        : undefined;
  if (problem) {
    throw new SvcError('USAGE', `cannot write to --out ${out}: ${problem}`, {
      hint: 'choose a file in an existing, writable directory; nothing was changed',
    });
  }
}

/** The reason a write failed, in words (the temporary file's name means nothing to a reader). */
function writeProblem(fs: typeof nodeFs, target: string, error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'EISDIR' || isDirectory(fs, target)) return 'it is a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOENT' || code === 'ENOTDIR') return `the directory ${dirname(target)} cannot be created`;
  if (code === 'ENOSPC') return 'no space left on the device';
  if (code === 'EROFS') return 'the file system is read-only';
  return typeof code === 'string' ? code : (error as Error).message;
}

function isDirectory(fs: typeof nodeFs, path: string): boolean {
  try {
    return fs.statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function writable(fs: typeof nodeFs, directory: string): boolean {
  try {
    fs.accessSync(directory, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Both paths exist and are one file (a symlink, a hard link, `./x` against `x`). */
function sameFile(fs: typeof nodeFs, a: string, b: string): boolean {
  try {
    const sa = fs.statSync(a);
    const sb = fs.statSync(b);
    return sa.ino === sb.ino && sa.dev === sb.dev;
  } catch {
    return false;
  }
}
