import type { ApplyCall } from './batch.js';
import type { ApplyJournal } from './journal.js';
import type { ResultLine } from './journal-lines.js';

/**
 * Write-ahead for calls: before a call goes out, its `sent` line must be durable. Calls are
 * announced a window at a time (one line and one fsync per window, naming each call's action
 * indices); a call that was
 * announced but never started gets a `skipped` result at the end, so after a clean stop only
 * calls that were really in flight are in doubt. Sequence numbers run across the whole apply.
 * Once a journal write fails, every later announcement fails with it: no call goes out whose
 * line may not be on disk.
 */
export interface Announcer {
  /** Makes the `sent` line of `calls[index]` durable (with the rest of its window); returns its seq. */
  announce(calls: readonly ApplyCall[], index: number): Promise<number>;
  /** Marks a call as sent for real (it is no longer "announced only"). */
  started(seq: number): void;
  /** Journals a `skipped` result for every announced call that never started. */
  closeUnstarted(code: string): Promise<void>;
}

export function createAnnouncer(
  journal: ApplyJournal | undefined,
  context: { now: () => Date; window: number },
): Announcer {
  let nextSeq = 0;
  let phaseCalls: readonly ApplyCall[] | undefined;
  let seqs: number[] = [];
  let durableUpTo = 0;
  let pending: Promise<void> | undefined;
  let failure: { error: unknown } | undefined;
  const unstarted = new Map<number, ApplyCall>();

  const announceWindow = (calls: readonly ApplyCall[]): Promise<void> => {
    const from = durableUpTo;
    const to = Math.min(calls.length, from + context.window);
    const announced: number[][] = [];
    for (let index = from; index < to; index++) {
      const call = calls[index]!;
      seqs[index] = nextSeq++;
      unstarted.set(seqs[index]!, call);
      announced.push(call.actions);
    }
    let written: Promise<void>;
    try {
      written = journal
        ? journal.append({
            type: 'sent',
            seq: seqs[from]!,
            at: context.now().toISOString(),
            calls: announced,
          })
        : Promise.resolve();
    } catch (error) {
      // A write that fails at once (writeSync on a full disk) fails like a failed fsync.
      written = Promise.reject(error);
    }
    return written.then(
      () => {
        durableUpTo = to;
        pending = undefined;
      },
      (error: unknown) => {
        failure ??= { error };
        pending = undefined;
        throw error;
      },
    );
  };

  return {
    async announce(calls, index) {
      if (calls !== phaseCalls) {
        phaseCalls = calls;
        seqs = [];
        durableUpTo = 0;
      }
      while (index >= durableUpTo) {
        if (failure) throw failure.error;
        pending ??= announceWindow(calls);
        await pending;
      }
      if (failure) throw failure.error;
      return seqs[index]!;
    },
    started(seq) {
      unstarted.delete(seq);
    },
    async closeUnstarted(code) {
      if (!journal || unstarted.size === 0) return;
      const records: ResultLine[] = [...unstarted].map(([seq, call]) => ({
        type: 'result',
        seq,
        at: context.now().toISOString(),
        outcomes: call.actions.map((i) => [i, 'skipped', code]),
      }));
      unstarted.clear();
      await journal.appendAll(records);
    },
  };
}
