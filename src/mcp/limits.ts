/**
 * The tool server's own limits (spec §7, §8), per server session: tool calls per minute and
 * the cumulative size of the results handed to the client. Clock injected.
 */
export class CallRate {
  private readonly calls: number[] = [];

  constructor(
    /** Calls allowed in any minute; 0 = no limit. */
    readonly perMinute: number,
    private readonly now: () => number,
  ) {}

  /** Counts a call; false when it would be one more than `perMinute` in the last minute (0 = no limit). */
  admit(): boolean {
    if (this.perMinute === 0) return true;
    const now = this.now();
    while (this.calls.length > 0 && now - (this.calls[0] as number) >= 60_000) this.calls.shift();
    if (this.calls.length >= this.perMinute) return false;
    this.calls.push(now);
    return true;
  }
}

export class SessionBudget {
  private used = 0;
  private exhausted = false;

  constructor(readonly limit: number) {}

  /** Accounts a result of `bytes`; false (and every later call too) once the total would cross the limit. */
  take(bytes: number): boolean {
    if (this.exhausted || this.used + bytes > this.limit) {
      this.exhausted = true;
      return false;
    }
    this.used += bytes;
    return true;
  }

  get isExhausted(): boolean {
    return this.exhausted;
  }

  get usedBytes(): number {
    return this.used;
  }
}
