/**
 * vitest globalSetup: every sandbox the suite starts (in test workers and in CLI child processes)
 * checks each ability answer against its profile's published output schema and writes the result
 * under one directory (SVC_SANDBOX_OUTPUT_AUDIT). At the end the run fails on any mismatch that is
 * not a cited shipped behaviour, and prints how many answers were checked per profile.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAudit, uncitedLines } from './output-audit-files.js';

export default function setup(): () => void {
  const own = process.env.SVC_SANDBOX_OUTPUT_AUDIT === undefined;
  const dir = process.env.SVC_SANDBOX_OUTPUT_AUDIT ?? mkdtempSync(join(tmpdir(), 'svc-output-audit-'));
  process.env.SVC_SANDBOX_OUTPUT_AUDIT = dir;
  return () => {
    const audit = readAudit(dir);
    if (own) rmSync(dir, { recursive: true, force: true });
    const counts = Object.entries(audit.checked)
      .map(([profile, n]) => `${profile} ${n}`)
      .join(', ');
    process.stdout.write(`output-schema audit: answers checked per profile: ${counts || 'none'}\n`);
    const uncited = uncitedLines(audit.mismatches);
    if (uncited.length > 0) {
      throw new Error(`sandbox answers that break their published output schema:\n${uncited.join('\n')}`);
    }
  };
}
