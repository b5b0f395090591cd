import * as fs from 'node:fs';
import { runAction } from './action.js';
import type { CliContext } from './context.js';

// The GitHub action's process (bundled to action/dist/index.js): like main.ts, the one place
// that touches process exit and signals for it. The runner cancels a step with SIGINT, then
// SIGTERM: the first lets calls in flight finish and the journal be written.
const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => controller.abort(new Error(signal)));

const ctx: CliContext = {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  fs,
  signal: controller.signal,
  now: () => new Date(),
};
const code = await runAction(ctx);
process.exitCode = code;
// Keep-alive sockets must not keep a finished step alive.
setTimeout(() => process.exit(code), 50).unref();
