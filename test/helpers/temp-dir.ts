import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * A fresh directory under the OS temp dir, removed with everything in it after the tests of
 * the file (or suite) that asked for it. Call it where hooks may be registered.
 */
export function tempDirForSuite(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
