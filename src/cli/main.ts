#!/usr/bin/env node
import { once } from 'node:events';
import * as fs from 'node:fs';
import { EXIT } from '../errors.js';
import type { CliContext } from './context.js';
import { terminalPrompt } from './prompt.js';
import { runCli } from './run.js';

// The only file that touches process exit, signals and the real terminal.
const controller = new AbortController();
let interrupts = 0;
const interrupt = (signal: 'SIGINT' | 'SIGTERM') => {
  interrupts += 1;
  // First signal: finish in-flight work and stop cleanly. Second: stop now.
  if (interrupts > 1) process.exit(EXIT.interrupted);
  controller.abort(new Error(signal));
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => interrupt(signal));
// Output piped into `head` closes early; that is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
  });
}

/** Room in a process stream again: writes to a pipe queue in memory while its reader is behind. */
const drained = (stream: NodeJS.WriteStream) => async () => {
  if (stream.writableNeedDrain) await once(stream, 'drain');
};

const ctx: CliContext = {
  stdout: Object.assign(process.stdout, { drained: drained(process.stdout) }),
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  fs,
  signal: controller.signal,
  now: () => new Date(),
  stdio: { input: process.stdin, output: process.stdout },
};
if (process.stdin.isTTY && process.stderr.isTTY) {
  // Ctrl-C at the prompt (a key in raw mode, not a signal) counts as SIGINT.
  ctx.prompt = terminalPrompt({ input: process.stdin, output: process.stderr }, controller.signal, () =>
    interrupt('SIGINT'),
  );
}

const code = await runCli(process.argv.slice(2), ctx);
process.exitCode = code;
// Everything written reaches the reader before the exit below: a pipe takes writes
// asynchronously, and exiting with some still queued would cut the output short under exit 0.
await Promise.all(
  [process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write('', resolve))),
);
// Keep-alive sockets or a sandbox left open must not keep a finished command alive.
setTimeout(() => process.exit(code), 50).unref();
