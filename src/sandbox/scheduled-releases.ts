import { isRecord } from './http-util.js';

/**
 * Releases published in the middle of a run: `PUT /__sandbox/scheduled-releases` takes rules
 * `{after_updates: N, site, kind, slug, to, from?}`; once the dashboard has updated N items in
 * total (any site, any path: abilities, REST, queued jobs), each rule due is applied as a
 * `POST /__sandbox/pending` would (a new release shows on that site). The version race a
 * rollout must survive: the dashboard installs the latest release, whatever the plan showed.
 */
export interface ScheduledRelease {
  after_updates: number;
  change: Record<string, unknown>;
  /** The update count at which it was published; absent until then. */
  published_at_update?: number;
}

export interface ReleaseSchedule {
  rules(): ScheduledRelease[];
  /** Replaces the rules; returns a message naming the first bad rule, or undefined. */
  replace(value: unknown): string | undefined;
  /** Counts one item updated, then publishes every rule now due (`publish`: as POST /__sandbox/pending). */
  updated(publish: (change: Record<string, unknown>) => void): void;
}

export function createReleaseSchedule(): ReleaseSchedule {
  let rules: ScheduledRelease[] = [];
  let updates = 0;
  return {
    rules: () => rules.map((rule) => ({ ...rule })),
    replace(value) {
      if (!Array.isArray(value)) return 'scheduled releases must be a JSON array of rules';
      const next: ScheduledRelease[] = [];
      for (const [index, raw] of value.entries()) {
        if (!isRecord(raw)) return `rule ${index}: not an object`;
        const { after_updates: after, ...change } = raw;
        if (typeof after !== 'number' || !Number.isInteger(after) || after < 0)
          return `rule ${index}: after_updates must be a whole number >= 0`;
        next.push({ after_updates: after, change });
      }
      rules = next;
      updates = 0;
      return undefined;
    },
    updated(publish) {
      updates += 1;
      for (const rule of rules) {
        if (rule.published_at_update !== undefined || updates < rule.after_updates) continue;
        rule.published_at_update = updates;
        publish(rule.change);
      }
    },
  };
}
