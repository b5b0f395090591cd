import type * as nodeFs from 'node:fs';
import { memfs } from 'memfs';

/**
 * An in-memory file system typed as `node:fs`, for code that takes `fs` as a parameter.
 * `files` maps absolute paths to contents; `null` makes an empty directory.
 */
export function memoryFs(files: Record<string, string | Buffer | null> = {}): typeof nodeFs {
  const { fs } = memfs(files);
  return fs as unknown as typeof nodeFs;
}
