import { applyEnding } from './apply-ending.js';
import { healthText } from './apply-health.js';
import type { ApplyReport } from './apply-report.js';
import {
  describeAction,
  groupByCode,
  outcomeMessage,
  unconfirmedNote,
  withUnverified,
} from './apply-report.js';
import { haltText } from './rollout-halt.js';
import { safeText } from './safe-text.js';

/** Per group, at most this many actions are listed; the rest are counted. */
const LIST_LIMIT = 20;

/** The apply report for a terminal or a log: summary first, then what needs attention. */
export function renderApplyText(report: ApplyReport): string {
  const { result } = report;
  const { counts, unverifiedDone, unverifiedSkipped, stopped, nextStep, unhealthyWithin } =
    applyEnding(report);
  const unverified = unverifiedDone + unverifiedSkipped;
  const lines: string[] = report.halt ? [haltText(report.halt)] : [];
  const verdict =
    stopped?.reason === 'interrupted'
      ? 'Apply interrupted'
      : stopped?.reason === 'unreachable'
        ? 'Apply stopped (the dashboard could not be reached)'
        : stopped?.reason === 'unhealthy'
          ? `Apply stopped (wave ${stopped.wave} left unhealthy sites)`
          : stopped?.reason === 'gate'
            ? `Apply stopped (${safeText(stopped.message)})`
            : counts.failed > 0
              ? 'Apply finished with failures'
              : unverified > 0
                ? 'Apply finished unconfirmed'
                : unhealthyWithin > 0
                  ? `Apply complete with warnings (${unhealthyWithin} unhealthy site${unhealthyWithin === 1 ? '' : 's'} within the allowance)`
                  : 'Apply complete';
  const done = withUnverified(counts.done, unverifiedDone, 'done');
  const skipped = withUnverified(counts.skipped, unverifiedSkipped, 'skipped');
  lines.push(
    `${verdict}: ${done}, ${counts.failed} failed, ${skipped}, ${counts.blocked} blocked ` +
      `(${result.calls} call${result.calls === 1 ? '' : 's'} to ${report.dashboard}; plan ${result.plan_id.slice(0, 12)}, approved by ${report.approval})`,
  );
  for (const status of ['failed', 'blocked', 'skipped'] as const) {
    for (const [code, outcomes] of groupByCode(result.outcomes, status)) {
      // Codes come from the dashboard (a child site can set its own): made safe like names.
      lines.push('', `${status} (${safeText(code)}): ${outcomes.length}`);
      for (const outcome of outcomes.slice(0, LIST_LIMIT)) {
        lines.push(
          `  - ${describeAction(outcome.action)}${outcome.message ? `: ${outcomeMessage(outcome)}` : ''}`,
        );
      }
      if (outcomes.length > LIST_LIMIT) lines.push(`  … and ${outcomes.length - LIST_LIMIT} more`);
    }
  }
  lines.push(...healthText(result));
  if (report.reviewed) {
    const { notNeeded, unreviewed } = report.reviewed;
    lines.push('', `Reviewed actions no longer needed: ${notNeeded.length}`);
    for (const action of notNeeded.slice(0, LIST_LIMIT)) lines.push(`  - ${describeAction(action)}`);
    lines.push(
      `New actions nobody reviewed (not applied; they wait for the next review): ${unreviewed.length}`,
    );
    for (const action of unreviewed.slice(0, LIST_LIMIT)) lines.push(`  - ${describeAction(action)}`);
  }
  if (report.verificationError) {
    lines.push(
      '',
      `Warning: the re-read after applying failed (${safeText(report.verificationError.code)}): outcomes are as the dashboard reported them, unverified.`,
    );
  }
  if (report.verificationSkipped) lines.push('', unconfirmedNote(report.verificationSkipped));
  for (const warning of report.warnings) lines.push(`warning: ${warning}`);
  // The last line is the next step.
  if (nextStep) lines.push('', nextStep);
  return `${lines.join('\n')}\n`;
}
