import { deliver, type Notification, type NotificationEvent, summaryOf } from '../notify/index.js';
import { quarantinesOfApply, unnotifiedMoves } from '../plan/index.js';
import { SECRET_KEYS, type Settings } from '../settings/index.js';
import type { ApplyResult, ItemKind, Plan, SecurityMove } from '../types.js';

/** Stops that are no failure of the apply: the halt has its own event, the rest are the person's or a gate's. */
const NOT_FAILURES = new Set(['UNHEALTHY', 'INTERRUPTED', 'GATE_CLOSED']);

/**
 * The events of one apply run: a wave that halted the rollout, each version it quarantined, the
 * sites the plan leaves vulnerable with no fix (`vulnerable`: the moves not notified before, see
 * notify-memory.ts; by default all of the plan's), and a failed apply (a failed action, or a stop
 * other than the halt, an interruption or a closed gate).
 */
export function applyEvents(
  plan: Plan,
  result: ApplyResult,
  now: Date,
  vulnerable: readonly SecurityMove[] = unnotifiedMoves(plan, undefined),
): NotificationEvent[] {
  const events: NotificationEvent[] = [];
  for (const wave of result.health ?? []) {
    if (!wave.stopped) continue;
    events.push({
      event: 'rollout.halted',
      wave: wave.wave ?? null,
      max_unhealthy: wave.max_unhealthy,
      unhealthy: wave.unhealthy.map(({ site_id, site_url, problem }) => ({ site_id, site_url, problem })),
    });
  }
  for (const { key, record } of quarantinesOfApply(result, now)) {
    // The key is versionKey's `kind slug version`; neither a slug nor a version holds a space.
    const [kind, slug, version] = key.split(' ') as [ItemKind, string, string];
    events.push({
      event: 'quarantine.recorded',
      kind,
      slug,
      version,
      wave: record.wave ?? null,
      since: record.at,
      sites: record.sites.map(({ site_id, site_url, problem }) => ({ site_id, site_url, problem })),
    });
  }
  for (const move of vulnerable) {
    events.push({
      event: 'vulnerable.no_fix',
      kind: move.kind,
      slug: move.slug,
      name: move.name,
      version: move.from,
      site_ids: move.site_ids,
      advisories: move.advisories.flatMap((id) => {
        const advisory = plan.security?.advisories[id];
        return advisory ? [{ id, ...advisory }] : [];
      }),
    });
  }
  const failed = result.outcomes.filter((outcome) => outcome.status === 'failed');
  const stopped = result.stopped && !NOT_FAILURES.has(result.stopped.code) ? result.stopped : undefined;
  if (failed.length > 0 || stopped) {
    events.push({
      event: 'apply.failed',
      failed: failed.length,
      stopped: stopped ? { code: stopped.code, message: stopped.message } : null,
      failures: failed.slice(0, 50).map(({ action, code }) => ({
        site_id: action.site_id,
        kind: action.kind,
        slug: action.slug,
        op: action.op,
        code: code ?? null,
      })),
    });
  }
  return events;
}

/** The event of an apply that threw before it had a result (`code`: the error's). */
export function thrownFailure(code: string): NotificationEvent {
  return {
    event: 'apply.failed',
    failed: 0,
    stopped: { code, message: 'the apply could not run' },
    failures: [],
  };
}

export interface NotifyContext {
  settings: Settings;
  dashboardUrl: string;
  planId: string | null;
  now: Date;
  onWarning: (message: string) => void;
  sleep?: ((ms: number) => Promise<void>) | undefined;
}

/** Posts the events, when there are any and a webhook is configured; never throws. True: delivered. */
export async function notify(events: NotificationEvent[], ctx: NotifyContext): Promise<boolean> {
  const url = ctx.settings.webhookUrl;
  if (!url || events.length === 0) return false;
  const notification: Notification = {
    source: 'svc-gitops',
    schema_version: 1,
    at: ctx.now.toISOString(),
    dashboard: ctx.dashboardUrl,
    plan_id: ctx.planId,
    summary: summaryOf(events),
    events,
  };
  return deliver(notification, {
    url,
    format: ctx.settings.webhookFormat ?? 'json',
    secrets: SECRET_KEYS.map((key) => ctx.settings[key] as string | undefined),
    onWarning: ctx.onWarning,
    sleep: ctx.sleep ?? ((ms) => new Promise((done) => setTimeout(done, ms))),
  });
}
