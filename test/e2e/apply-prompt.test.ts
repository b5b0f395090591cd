import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../src/cli/context.js';
import { terminalPrompt } from '../../src/cli/prompt.js';
import { runCli } from '../../src/cli/run.js';
import { fastClientEnv, sandboxPer } from '../helpers/sandbox.js';
import { REPO, STACK_TRACE, startDemo, tempDir } from './helpers.js';

/**
 * `svc-gitops apply` at a real terminal prompt (main.ts's prompt over a terminal-mode stream):
 * the person presses Ctrl-C (in raw mode a key, not a signal) or Ctrl-D instead of answering.
 */
describe('apply: leaving the confirmation prompt', () => {
  const sandbox = sandboxPer('test', () => startDemo('compat-6.1'));

  async function applyAtTerminal(key: string | ((controller: AbortController) => void)) {
    const cwd = tempDir('svc-gitops-prompt-');
    const controller = new AbortController();
    copyFileSync(join(REPO, 'examples/minimal.yaml'), join(cwd, 'svc-gitops.yaml'));
    const terminal = Object.assign(new PassThrough(), { isTTY: true });
    const screen = new PassThrough();
    let stdout = '';
    let stderr = '';
    screen.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      // The key is pressed once the question is on the screen.
      if (stderr.includes('Enter a value')) {
        if (typeof key === 'string') terminal.write(key);
        else key(controller);
      }
    });
    const ctx: CliContext = {
      stdout: { write: (s: string) => (stdout += s), isTTY: false },
      stderr: { write: (s: string) => (stderr += s), isTTY: false },
      env: { NO_COLOR: '1', HOME: tempDir(), ...fastClientEnv(sandbox) },
      cwd,
      fs: await import('node:fs'),
      signal: controller.signal,
      now: () => new Date(),
      prompt: terminalPrompt({ input: terminal, output: screen }, controller.signal, () =>
        controller.abort(new Error('SIGINT')),
      ),
    };
    const code = await runCli(['apply'], ctx);
    return { code, stdout, stderr, cwd, aborted: controller.signal.aborted };
  }

  it('Ctrl-C at the prompt is an interruption: exit 130, nothing applied, no internal error', async () => {
    const run = await applyAtTerminal('\u0003');
    expect(run.stderr).not.toContain('internal error');
    expect(run.stderr).not.toMatch(STACK_TRACE);
    expect(run.stderr).toContain('svc-gitops: interrupted');
    expect(run.code).toBe(130);
    expect(run.aborted).toBe(true);
    expect(existsSync(join(run.cwd, '.svc-gitops'))).toBe(false);
  });

  it('Ctrl-D at the prompt is no answer: apply cancelled, exit 1, no internal error', async () => {
    const run = await applyAtTerminal('\u0004');
    expect(run.stderr).not.toContain('internal error');
    expect(run.stderr).toContain('apply cancelled: nothing was changed');
    expect(run.code).toBe(1);
  });

  it('SIGTERM while the prompt waits ends it: exit 130, nothing applied', async () => {
    const run = await applyAtTerminal((controller) => controller.abort(new Error('SIGTERM')));
    expect(run.stderr).toContain('svc-gitops: interrupted');
    expect(run.code).toBe(130);
    expect(existsSync(join(run.cwd, '.svc-gitops'))).toBe(false);
  });
});
