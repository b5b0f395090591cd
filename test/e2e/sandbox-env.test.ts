import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/run.js';
import { tempDir } from './helpers.js';

/**
 * The README's recipe waits until `sandbox.env` is non-empty, then sources it. That is only safe
 * when the SVC_* lines reach the file in one write: a file holding SVC_URL alone would send the
 * next command to the dashboard without a login.
 */
describe('svc-gitops sandbox > sandbox.env', () => {
  it('prints all of its SVC_* lines in a single write', async () => {
    const controller = new AbortController();
    const writes: string[] = [];
    const ctx: CliContext = {
      stdout: { write: (s: string) => writes.push(s) },
      stderr: { write: () => true },
      env: { NO_COLOR: '1' },
      cwd: tempDir(),
      fs,
      signal: controller.signal,
      now: () => new Date(),
    };
    const done = runCli(['sandbox'], ctx);
    for (let i = 0; i < 500 && writes.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    // Give any further writes of the same start-up a moment to arrive before judging.
    await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    expect(await done).toBe(0);
    expect(writes).toHaveLength(1);
    expect(writes[0]!.split('\n').map((line) => line.split('=')[0])).toEqual([
      'SVC_URL',
      'SVC_USER',
      'SVC_APP_PASSWORD',
      'SVC_TOKEN',
      'SVC_ALLOW_HTTP',
      '',
    ]);
  });
});
