#!/usr/bin/env node
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
// Output piped into `head` closes early. The command still runs to its end, unread: its files,
// its changes to the dashboard and its exit code (`plan --detailed-exitcode | head` under
// pipefail) must not depend on whether anyone reads the rest. Each later write fails the same
// way and is dropped. (Any other failure of the stream is treated alike: the output is lost
// either way, the command's work need not be.)
const readerGone = new Set<NodeJS.WriteStream>();
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', () => readerGone.add(stream));
}

/**
 * Room in a process stream again: writes to a pipe queue in memory while its reader is behind.
 * Resolves as well once the reader is gone (the write fails; no drain follows then).
 */
const drained = (stream: NodeJS.WriteStream) => async () => {
  if (!stream.writableNeedDrain || readerGone.has(stream)) return;
  await new Promise<void>((resolve) => {
    const events = ['drain', 'error', 'close'] as const;
    const done = () => {
      for (const event of events) stream.off(event, done);
      resolve();
    };
    for (const event of events) stream.on(event, done);
  });
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
  [process.stdout, process.stderr].map((stream) =>
    readerGone.has(stream) ? undefined : new Promise((resolve) => stream.write('', resolve)),
  ),
);
// Keep-alive sockets or a sandbox left open must not keep a finished command alive.
setTimeout(() => process.exit(code), 50).unref();
