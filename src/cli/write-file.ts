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
    throw new SvcError('IO_ERROR', `cannot write ${path}: ${(error as Error).message}`, { cause: error });
  }
}
