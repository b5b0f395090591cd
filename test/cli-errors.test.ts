import { describe, expect, it } from 'vitest';
import type { CliContext } from '../src/cli/context.js';
import { reportError } from '../src/cli/run.js';
import { EXIT } from '../src/errors.js';

function report(error: unknown, env: Record<string, string> = {}): { code: number; stderr: string } {
  let stderr = '';
  const ctx = { stderr: { write: (s: string) => (stderr += s) }, env } as unknown as CliContext;
  return { code: reportError(error, ctx), stderr };
}

describe('an unexpected error (a bug)', () => {
  it('is one line and a request to report it, exit 1; its stack only with SVC_GITOPS_DEBUG', () => {
    const bug = new TypeError('cannot read properties of undefined');
    const plain = report(bug);
    expect(plain.code).toBe(EXIT.error);
    expect(plain.stderr).toContain('svc-gitops: internal error: cannot read properties of undefined');
    expect(plain.stderr).toContain('set SVC_GITOPS_DEBUG=1 for details');
    expect(plain.stderr).not.toMatch(/\n\s+at /);
    const debug = report(bug, { SVC_GITOPS_DEBUG: '1' });
    expect(debug.stderr).toMatch(/\n\s+at /);
  });
});
