import { randomUUID } from 'node:crypto';

/** How long a preview's confirmation token stays valid (interface spec §8). */
export const TOKEN_LIFETIME_MS = 5 * 60_000;

/** Pending previews kept at once; the oldest is dropped first. Held in memory only. */
const MAX_PENDING = 100;

interface Pending {
  tool: string;
  binding: string;
  issuedAt: number;
  /** What the preview handed over for the confirming call (a dashboard preview token, a plan id). */
  carried: unknown;
}

export type Redeemed =
  | { ok: true; carried: unknown }
  | { ok: false; code: 'PREVIEW_REQUIRED' | 'PREVIEW_EXPIRED'; reason: string };

/**
 * Confirmation tokens of the two-step flow (spec §3 and §7): issued by a preview, valid for five
 * minutes (expired strictly after), single use, bound to the tool and a binding (the canonical
 * arguments and dashboard, or the plan id). A token presented for another tool or binding is
 * refused and kept: a confirming call with a wrong argument must not cost the user the preview
 * they approved for the right ones (a token is a random UUID: keeping it offers nothing to
 * guess). Previewing the same tool and binding again replaces the earlier token. The clock is injected: tests never sleep.
 */
export class ConfirmationTokens {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly now: () => number,
    private readonly newToken: () => string = randomUUID,
  ) {}

  issue(tool: string, binding: string, carried?: unknown): { token: string; expiresAt: Date } {
    for (const [token, entry] of this.pending) {
      if (entry.tool === tool && entry.binding === binding) this.pending.delete(token);
    }
    while (this.pending.size >= MAX_PENDING) {
      const oldest = this.pending.keys().next().value;
      if (oldest === undefined) break;
      this.pending.delete(oldest);
    }
    const token = this.newToken();
    const issuedAt = this.now();
    this.pending.set(token, { tool, binding, issuedAt, carried });
    return { token, expiresAt: new Date(issuedAt + TOKEN_LIFETIME_MS) };
  }

  /**
   * Uses the token up. `binding` undefined accepts the token's own binding: for a token whose
   * binding is what it carries (svc_apply's plan id), which the caller learns from it.
   */
  redeem(token: string, tool: string, binding?: string): Redeemed {
    const entry = this.pending.get(token);
    if (!entry) {
      return {
        ok: false,
        code: 'PREVIEW_REQUIRED',
        reason: 'the confirmation token is unknown or was already used (each token works once)',
      };
    }
    if (this.now() - entry.issuedAt > TOKEN_LIFETIME_MS) {
      this.pending.delete(token);
      return { ok: false, code: 'PREVIEW_EXPIRED', reason: 'more than 5 minutes passed since the preview' };
    }
    if (entry.tool !== tool || (binding !== undefined && entry.binding !== binding)) {
      return {
        ok: false,
        code: 'PREVIEW_REQUIRED',
        reason:
          entry.tool !== tool
            ? `the confirmation token was issued for ${entry.tool}, not ${tool}`
            : 'the confirmation token was issued for other arguments',
      };
    }
    this.pending.delete(token);
    return { ok: true, carried: entry.carried };
  }

  /**
   * Drops every pending token of `tool`: a new plan makes the older plans' tokens worthless, so
   * at most one apply token is outstanding and it is the one of the plan last shown.
   */
  revoke(tool: string): void {
    for (const [token, entry] of this.pending) if (entry.tool === tool) this.pending.delete(token);
  }

  /** What a valid token carries, without using it up (for a dry run of the confirmed call). */
  peek(token: string, tool: string): unknown {
    const entry = this.pending.get(token);
    if (!entry || entry.tool !== tool || this.now() - entry.issuedAt > TOKEN_LIFETIME_MS) return undefined;
    return entry.carried;
  }

  get size(): number {
    return this.pending.size;
  }
}
