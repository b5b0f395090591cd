import type { IgnoreRequest, RunUpdatesRequest, RunUpdatesResult } from '../../src/dashboard/client.js';
import { SvcError } from '../../src/errors.js';
import type { LiveState, PendingUpdate } from '../../src/types.js';
import { ABILITIES } from '../plan/builders.js';

/**
 * An in-memory dashboard behind the DashboardClient methods apply uses, for unit tests of the
 * executor's ordering, concurrency and stopping rules. End-to-end behaviour is tested against
 * the sandbox through the real client; this stands in for neither.
 */
export class MemoryDashboard {
  pending: PendingUpdate[] = [];
  ignores: LiveState['ignores'] = [];
  calls: Array<IgnoreRequest | RunUpdatesRequest> = [];
  inFlight = 0;
  maxInFlight = 0;
  /** Items (`site|kind|slug`) whose update fails with svc_update_failed. */
  failing = new Set<string>();
  /** Ignores the dashboard acknowledges but does not keep. */
  forgetIgnores = false;
  /** Called as each call starts (tests abort a signal from here). */
  onCall: (() => void) | undefined;

  async setIgnored(request: IgnoreRequest): Promise<void> {
    await this.enter(request);
    try {
      for (const slug of request.slugs) {
        this.ignores = this.ignores.filter(
          (i) => !(i.siteId === request.siteId && i.kind === request.kind && i.slug === slug),
        );
        if (request.direction === 'ignore' && !this.forgetIgnores) {
          this.ignores.push({
            siteId: request.siteId,
            kind: request.kind,
            slug,
            versions: 'all',
            origin: 'site',
          });
        }
      }
    } finally {
      this.inFlight -= 1;
    }
  }

  async runUpdates(request: RunUpdatesRequest): Promise<RunUpdatesResult> {
    await this.enter(request);
    const result: RunUpdatesResult = { updated: [], errors: [] };
    for (const siteId of request.siteIds) {
      for (const item of request.items) {
        const key = `${siteId}|${item.kind}|${item.slug}`;
        if (this.failing.has(key)) {
          result.errors.push({
            siteId,
            kind: item.kind,
            slug: item.slug,
            code: 'svc_update_failed',
            message: 'boom',
          });
          continue;
        }
        const before = this.pending.length;
        this.pending = this.pending.filter((p) => `${p.siteId}|${p.kind}|${p.slug}` !== key);
        if (this.pending.length < before) result.updated.push({ siteId, kind: item.kind, slug: item.slug });
      }
    }
    this.inFlight -= 1;
    return result;
  }

  async readLive(): Promise<LiveState> {
    return {
      dashboardUrl: 'https://dashboard.example.test',
      sites: [],
      pending: [...this.pending],
      ignores: [...this.ignores],
      unreadable: [],
      capabilities: ABILITIES,
    };
  }

  stats() {
    return { requests: this.calls.length, responseBytes: 0, retries: 0 };
  }

  private async enter(request: IgnoreRequest | RunUpdatesRequest): Promise<void> {
    this.calls.push(request);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    this.onCall?.();
    if ('siteIds' in request && request.siteIds.includes(999)) {
      this.inFlight -= 1;
      throw new SvcError('CONNECTION_FAILED', 'socket hang up');
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
