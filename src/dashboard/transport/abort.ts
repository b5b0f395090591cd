/**
 * Shares one 'abort' listener per signal among any number of waiters. Without it every queued
 * request added its own listener to the caller's signal, and a read of more than ten sites
 * tripped Node's MaxListenersExceededWarning (a warning about a real leak pattern, not noise).
 * Invariant: a watched signal carries exactly one listener from this fan-out while at least one
 * subscriber is registered, and none once the last one unsubscribes or the signal aborts.
 */
export class AbortFanout {
  private readonly watched = new Map<AbortSignal, { subscribers: Set<() => void>; fire: () => void }>();

  /**
   * Calls `onAbort` once when `signal` aborts; the returned function unsubscribes (idempotent).
   * The caller checks `signal.aborted` first: an already aborted signal never fires again.
   */
  subscribe(signal: AbortSignal, onAbort: () => void): () => void {
    let entry = this.watched.get(signal);
    if (!entry) {
      const subscribers = new Set<() => void>();
      const fire = () => {
        this.watched.delete(signal);
        for (const subscriber of [...subscribers]) subscriber();
        subscribers.clear();
      };
      signal.addEventListener('abort', fire, { once: true });
      entry = { subscribers, fire };
      this.watched.set(signal, entry);
    }
    // A fresh wrapper per subscription, so the same callback may subscribe twice.
    const subscriber = () => onAbort();
    entry.subscribers.add(subscriber);
    return () => {
      const current = this.watched.get(signal);
      if (!current?.subscribers.delete(subscriber)) return;
      if (current.subscribers.size === 0) {
        signal.removeEventListener('abort', current.fire);
        this.watched.delete(signal);
      }
    };
  }

  /**
   * A signal of one's own that aborts when `parent` does, for handing to code that adds its own
   * listeners (undici, sleeps): those then pile up on the child, never on the shared parent.
   */
  link(parent: AbortSignal | undefined): { signal: AbortSignal | undefined; unlink: () => void } {
    if (!parent) return { signal: undefined, unlink: () => {} };
    const child = new AbortController();
    if (parent.aborted) {
      child.abort(parent.reason);
      return { signal: child.signal, unlink: () => {} };
    }
    const unlink = this.subscribe(parent, () => child.abort(parent.reason));
    return { signal: child.signal, unlink };
  }

  /** Signals currently watched (for tests of the one-listener invariant). */
  watchedCount(): number {
    return this.watched.size;
  }
}
