import { DASHBOARD_UNREACHABLE } from '../types.js';
import type { ApplyReport } from './apply-report.js';
import { countStatuses } from './apply-report.js';

/** The apply report as JSON: the ApplyResult plus counts and the approval facts. Stable keys. */
export function renderApplyJson(report: ApplyReport): string {
  const body = {
    format_version: 1,
    dashboard: report.dashboard,
    approval: report.approval,
    counts: countStatuses(report.result.outcomes),
    // The run's own fields, named: a complete ApplyResult carries more than this format shows.
    plan_id: report.result.plan_id,
    started_at: report.result.started_at,
    finished_at: report.result.finished_at,
    outcomes: report.result.outcomes,
    interrupted: report.result.interrupted,
    calls: report.result.calls,
    ...(report.result.health ? { health: report.result.health } : {}),
    ...(report.reviewed
      ? { reviewed: { not_needed: report.reviewed.notNeeded, unreviewed: report.reviewed.unreviewed } }
      : {}),
    ...(report.verificationError ? { verification_error: report.verificationError } : {}),
    ...(report.verificationSkipped ? { verification_skipped: report.verificationSkipped } : {}),
    ...(report.unreachable ? { stopped: { code: DASHBOARD_UNREACHABLE, ...report.unreachable } } : {}),
    warnings: report.warnings,
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
