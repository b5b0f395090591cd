import { SvcError } from '../errors.js';

/**
 * Longest stretch of synchronous work between two turns of the event loop while reading the
 * desired state. Signals reach their handlers only on such a turn, so this bounds how long
 * SIGINT/SIGTERM wait during a large load (a handful of turns per second costs nothing).
 */
const SLICE_MS = 50;

/**
 * Paces long synchronous work: `due()` is cheap enough to call in a hot loop; `pause()` gives the
 * event loop a turn and then throws INTERRUPTED once `signal` is aborted, so the caller stops.
 */
export class Pacer {
  private last = performance.now();

  constructor(private readonly signal?: AbortSignal) {}

  due(): boolean {
    return performance.now() - this.last >= SLICE_MS;
  }

  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.last = performance.now();
    this.check();
  }

  /** A turn of the event loop only when one is due; the abort check always. */
  async step(): Promise<void> {
    if (this.due()) await this.pause();
    else this.check();
  }

  check(): void {
    if (this.signal?.aborted) {
      throw new SvcError('INTERRUPTED', 'stopped while reading the desired state', {
        hint: 'nothing was changed; run the command again to read it in full',
      });
    }
  }
}
