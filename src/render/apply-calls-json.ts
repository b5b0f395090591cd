import type { PhaseView } from './apply-calls.js';

/**
 * `apply --dry-run --format json`: the calls apply would send, as data
 * (schemas/apply-dry-run.schema.json). Site ids, slugs and wave names are the plan's own; no
 * credential is in the plan, so none can be here.
 */
export function renderApplyCallsJson(phases: readonly PhaseView[], dashboard: string): string {
  const calls = phases.reduce((n, phase) => n + phase.calls.length, 0);
  const document = {
    dry_run: true,
    dashboard_url: dashboard,
    calls,
    phases: phases.map((phase) => ({
      kind: phase.kind,
      wave: phase.wave ?? null,
      calls: phase.calls.map((call) =>
        call.type === 'set-ignored'
          ? {
              type: call.type,
              site_id: call.siteId,
              kind: call.kind,
              direction: call.direction,
              slugs: call.slugs,
            }
          : {
              type: call.type,
              site_ids: call.siteIds,
              items: call.items.map((item) => ({ kind: item.kind, slug: item.slug })),
            },
      ),
    })),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
