/**
 * vitest globalSetup of `npm run test:real`: stands the real dashboard up (or finds it up), or
 * records in SVC_REAL_SKIP why it cannot, printing that as one line. The test files skip then.
 * Afterwards it stops the dashboard's processes (by their PIDs) unless SVC_REAL_KEEP=1.
 */
import { execFileSync } from 'node:child_process';
import { harness, SCRIPT } from './harness.js';

export default function setup(): (() => void) | undefined {
  try {
    execFileSync('bash', [SCRIPT, 'check'], { encoding: 'utf8', timeout: 30_000, stdio: 'pipe' });
  } catch (error) {
    const out = (error as { stdout?: string }).stdout?.trim();
    const reason = out || 'the harness check failed';
    process.env.SVC_REAL_SKIP = reason;
    process.stdout.write(`test:real: skipped: ${reason}\n`);
    return undefined;
  }
  harness(['up'], 240);
  return () => {
    if (process.env.SVC_REAL_KEEP !== '1') harness(['down'], 90);
  };
}
