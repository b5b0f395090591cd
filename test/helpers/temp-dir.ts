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

/** The directories tempDirForFile made for the test file now running (one module per file). */
const madeForThisFile: string[] = [];
let removalRegistered = false;

/**
 * A fresh directory (under the OS temp dir unless `parent` is given), removed with everything in
 * it once the tests of the test file that made it have finished. Unlike tempDirForSuite it may be
 * called anywhere, inside a test too: the removal is the afterAll of test/setup/temp-dirs.ts
 * (vitest's setupFiles), which registers it for every test file.
 */
export function tempDirForFile(prefix: string, parent: string = tmpdir()): string {
  if (!removalRegistered) {
    throw new Error('tempDirForFile needs test/setup/temp-dirs.ts in setupFiles (vitest.config.ts)');
  }
  const dir = mkdtempSync(join(parent, prefix));
  madeForThisFile.push(dir);
  return dir;
}

/** For test/setup/temp-dirs.ts only: removes, after the file's tests, what tempDirForFile made. */
export function removeTempDirsAfterFile(): void {
  removalRegistered = true;
  afterAll(() => {
    for (const dir of madeForThisFile.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
}
