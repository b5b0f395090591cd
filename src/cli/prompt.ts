import { createInterface } from 'node:readline/promises';
import { SvcError } from '../errors.js';

export interface PromptStreams {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream;
}

/**
 * The terminal prompt behind `CliContext.prompt`. A terminal in raw mode turns Ctrl-C into a
 * key, not a signal, and readline's promise rejects on it (and on Ctrl-D) with its own
 * AbortError; so Ctrl-C here calls `interrupt` (as SIGINT would) and ends the command as
 * interrupted, while Ctrl-D or the end of input is no answer (the caller cancels).
 * `signal` (SIGINT/SIGTERM) ends the question as interrupted too.
 */
export function terminalPrompt(
  streams: PromptStreams,
  signal: AbortSignal,
  interrupt: () => void,
): (question: string) => Promise<string> {
  return async (question) => {
    if (signal.aborted) throw interruptedAtPrompt();
    const rl = createInterface({
      input: streams.input,
      output: streams.output,
      terminal: streams.input.isTTY === true,
    });
    const ended = new AbortController();
    let ctrlC = false;
    // A SIGINT listener keeps readline from closing on its own; ending the question is ours.
    rl.on('SIGINT', () => {
      ctrlC = true;
      ended.abort();
    });
    // Readline leaves a pending question unsettled when its input just ends.
    rl.on('close', () => ended.abort());
    try {
      return await rl.question(question, { signal: AbortSignal.any([ended.signal, signal]) });
    } catch (error) {
      if (ctrlC || signal.aborted) {
        if (ctrlC) interrupt();
        throw interruptedAtPrompt();
      }
      if (ended.signal.aborted) return '';
      throw error;
    } finally {
      rl.close();
    }
  };
}

function interruptedAtPrompt(): SvcError {
  return new SvcError('INTERRUPTED', 'interrupted at the confirmation prompt: nothing was changed');
}
