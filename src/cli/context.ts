import type * as nodeFs from 'node:fs';
import type { Readable, Writable } from 'node:stream';

/**
 * Everything a command touches outside its arguments, injected so tests run commands in-process
 * with memfs, captured output and a fake environment. Commands never read `process.*` directly.
 */
export interface CliContext {
  stdout: OutputStream;
  stderr: OutputStream;
  /** Reads one line from the person at the terminal; undefined when there is no terminal. */
  prompt?: (question: string) => Promise<string>;
  env: Record<string, string | undefined>;
  cwd: string;
  /** `node:fs`-compatible file system (memfs in tests). */
  fs: typeof nodeFs;
  /**
   * The same file system without the output mask `runCli` puts on `fs`: only for the one file
   * meant to hold a secret, the tool server's settings file that its configure tool writes.
   */
  settingsFs?: typeof nodeFs;
  /** Aborted on SIGINT/SIGTERM: long work finishes what is in flight and stops. */
  signal: AbortSignal;
  /** Wall clock, injectable for tests. */
  now: () => Date;
  /**
   * The time dashboard calls are paced by and progress lines are spaced by (milliseconds), with
   * its waits and periodic ticks. Absent: real timers. A test injects a virtual clock to run a
   * rate-limited apply without waiting.
   */
  timers?: {
    now(): number;
    sleep(ms: number, signal?: AbortSignal): Promise<void>;
    every(ms: number, tick: () => void): () => void;
  };
  /**
   * Masks these values (credentials read from a settings file) in all further output. Set by
   * `runCli`, which masks the SVC_* credential variables from the start.
   */
  addSecrets?: (values: ReadonlyArray<string | undefined>) => void;
  /**
   * The raw process streams, for `mcp` over stdio: its protocol owns stdin and stdout (every
   * message of its own goes to stderr). Absent in-process.
   */
  stdio?: { input: Readable; output: Writable };
  /**
   * Where commander's usage errors go instead of stderr, when set (`--format json`: they become
   * the error document).
   */
  usageErrors?: (text: string) => void;
  /** The same mask for text that leaves by another way than stdout/stderr (a PR comment). */
  redact?: (text: string) => string;
}

export interface OutputStream {
  write(chunk: string): unknown;
  /** True when the stream is a terminal (colour, live progress). */
  isTTY?: boolean;
  /** The terminal's width, when it is one. */
  columns?: number;
  /**
   * Resolves once the stream has room again (at once when it has): a writer of a fleet-sized
   * output waits on it between chunks, so what a slow reader has not taken yet is not all
   * buffered in memory. Absent on streams that never push back.
   */
  drained?: () => Promise<void>;
}

/** Colour only on a terminal and never with NO_COLOR (https://no-color.org). */
export function useColour(ctx: CliContext, stream: OutputStream = ctx.stdout): boolean {
  return stream.isTTY === true && !ctx.env.NO_COLOR && ctx.env.TERM !== 'dumb';
}
