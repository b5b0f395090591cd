import type { Approved } from '../apply/index.js';
import type { ApplyReport } from '../render/index.js';
import type { ApplyResult } from '../types.js';

/**
 * What an apply report shows, from the approval and the complete result: how it was approved,
 * what the reviewed-plan path left out, whether the re-read confirmed the outcomes, and whether
 * the run stopped because the dashboard could not be reached.
 */
export function applyReport(
  approved: Approved,
  result: ApplyResult,
  dashboardUrl: string,
  /** Warnings of the run itself (a lock taken over), after the approval's own. */
  runWarnings: readonly string[] = [],
): ApplyReport {
  const { verification, stopped } = result;
  return {
    result,
    dashboard: dashboardUrl,
    approval: approved.approval,
    ...(approved.reviewed ? { reviewed: approved.reviewed } : {}),
    ...(verification.status === 'failed'
      ? { verificationError: { code: verification.code, message: verification.message } }
      : {}),
    ...(verification.status === 'skipped'
      ? { verificationSkipped: { code: verification.code, message: verification.message } }
      : {}),
    ...(stopped?.code === 'DASHBOARD_UNREACHABLE' ? { unreachable: { message: stopped.message } } : {}),
    ...(approved.plan.rollout_halt ? { halt: approved.plan.rollout_halt } : {}),
    ...(stopped?.code === 'GATE_CLOSED' ? { gateClosed: { message: stopped.message } } : {}),
    warnings: [...approved.warnings, ...runWarnings],
  };
}
