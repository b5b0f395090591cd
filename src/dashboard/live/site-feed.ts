/**
 * Site IDs as they become known (the site listing's pages as they arrive, or a list given
 * up front), taken in chunks by the readers of per-site listings. A reader waits until a whole
 * chunk is known or the feed has ended; a feed that failed fails every reader still taking.
 */
export class SiteFeed {
  private readonly ids: number[] = [];
  private head = 0;
  private ended = false;
  private failure: { error: unknown } | undefined;
  private waiters: Array<() => void> = [];
  private total: number | undefined;

  static of(ids: readonly number[]): SiteFeed {
    const feed = new SiteFeed();
    feed.push(ids);
    feed.end();
    return feed;
  }

  /** How many IDs the feed will hold in all, once known (the site listing's total). */
  expect(total: number): void {
    this.total = total;
  }

  /** IDs not yet taken, counting those still to come when the total is known; else undefined. */
  remaining(): number | undefined {
    if (this.ended) return this.ids.length - this.head;
    return this.total === undefined ? undefined : Math.max(0, this.total - this.head);
  }

  push(ids: readonly number[]): void {
    for (const id of ids) this.ids.push(id);
    this.wake();
  }

  end(): void {
    this.ended = true;
    this.wake();
  }

  fail(error: unknown): void {
    this.failure ??= { error };
    this.end();
  }

  /**
   * The next IDs: `max` of them, or fewer where `fits` (how many of these one request holds) says
   * so, or what is left once the feed ended; an empty list once every ID was taken.
   */
  async take(max: number, fits: (ids: number[]) => number): Promise<number[]> {
    while (this.ids.length - this.head < max && !this.ended) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    if (this.failure) throw this.failure.error;
    const candidate = this.ids.slice(this.head, this.head + max);
    const count = candidate.length === 0 ? 0 : Math.max(1, Math.min(candidate.length, fits(candidate)));
    this.head += count;
    return candidate.slice(0, count);
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
