/**
 * Runs before every test file: once the file's tests are done, fails the file when a sandbox in
 * this worker answered with something its profile's output schema does not allow (and that is
 * not a cited shipped behaviour). Sandboxes in child processes are checked by the global teardown.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { readAudit, uncitedLines } from './output-audit-files.js';

const dir = process.env.SVC_SANDBOX_OUTPUT_AUDIT;
const file = `${process.pid}.jsonl`;
let from = 0;

beforeAll(() => {
  if (!dir) return;
  try {
    from = statSync(join(dir, file)).size;
  } catch {
    from = 0;
  }
});

afterAll(() => {
  if (!dir) return;
  const uncited = uncitedLines(readAudit(dir, { file, from }).mismatches);
  if (uncited.length > 0)
    throw new Error(`sandbox answers that break their published output schema:\n${uncited.join('\n')}`);
});
