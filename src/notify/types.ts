import type { ItemKind, PlanAdvisory, StopCode, UnhealthySite } from '../types.js';

/** The events a run notifies of (docs/notifications.md documents each one's fields). */
export type NotificationEventName =
  | 'rollout.halted'
  | 'quarantine.recorded'
  | 'vulnerable.no_fix'
  | 'apply.failed';

/** A site as an event names it. */
export type NotifiedSite = Pick<UnhealthySite, 'site_id' | 'site_url' | 'problem'>;

export type NotificationEvent =
  | { event: 'rollout.halted'; wave: string | null; max_unhealthy: number; unhealthy: NotifiedSite[] }
  | {
      event: 'quarantine.recorded';
      kind: ItemKind;
      slug: string;
      version: string;
      wave: string | null;
      since: string;
      sites: NotifiedSite[];
    }
  | {
      event: 'vulnerable.no_fix';
      kind: ItemKind;
      slug: string;
      name: string;
      version: string;
      site_ids: number[];
      advisories: Array<PlanAdvisory & { id: string }>;
    }
  | {
      event: 'apply.failed';
      failed: number;
      stopped: { code: StopCode | string; message: string } | null;
      failures: Array<{ site_id: number; kind: ItemKind; slug: string; op: string; code: string | null }>;
    };

/** One run's notification: every event it decided, in one body. */
export interface Notification {
  /** Always "svc-gitops": a receiver shared with other senders can tell this one apart. */
  source: 'svc-gitops';
  /** The body's own version: fields are only ever added within one. */
  schema_version: 1;
  /** When the run decided it (ISO 8601, UTC). */
  at: string;
  /** The dashboard's base URL. */
  dashboard: string;
  plan_id: string | null;
  /** One line per event, for people. */
  summary: string;
  events: NotificationEvent[];
}

export type WebhookFormat = 'json' | 'slack';
