import type { Action } from '../types.js';
import { applyEnding, type NextStepWords } from './apply-ending.js';
import { healthMarkdown } from './apply-health.js';
import type { ApplyReport } from './apply-report.js';
import {
  describeChange,
  groupByCode,
  outcomeMessage,
  unconfirmedNote,
  withUnverified,
} from './apply-report.js';
import { escapeMarkdown, markdownUrl } from './markdown-escape.js';
import { haltMarkdown } from './rollout-halt.js';

const LIST_LIMIT = 50;

/**
 * An action in markdown: the change escaped, the site's address a code span (markdownUrl), so it
 * copies byte for byte and never autolinks.
 */
function actionMarkdown(action: Action): string {
  return `${escapeMarkdown(describeChange(action))} on ${markdownUrl(action.site_url)}`;
}

/** The apply report as GitHub-flavoured markdown (PR comment, step summary). */
export function renderApplyMarkdown(report: ApplyReport, words?: NextStepWords): string {
  const { result } = report;
  const { counts, unverifiedDone, unverifiedSkipped, stopped, nextStep, unhealthyWithin } = applyEnding(
    report,
    words,
  );
  const unverified = unverifiedDone + unverifiedSkipped;
  const icon =
    stopped?.reason === 'interrupted'
      ? '⏸️'
      : counts.failed > 0 || stopped
        ? '❌'
        : unverified > 0 || unhealthyWithin > 0 || report.halt
          ? '⚠️'
          : '✅';
  const state =
    stopped?.reason === 'interrupted'
      ? ' (interrupted)'
      : stopped?.reason === 'unreachable'
        ? ' (stopped: the dashboard could not be reached)'
        : stopped?.reason === 'unhealthy'
          ? ` (stopped: wave ${escapeMarkdown(stopped.wave)} left unhealthy sites)`
          : stopped?.reason === 'gate'
            ? ` (stopped: ${escapeMarkdown(stopped.message)})`
            : unhealthyWithin > 0
              ? ` (${unhealthyWithin} unhealthy site${unhealthyWithin === 1 ? '' : 's'} within the allowance)`
              : '';
  const lines = [
    ...(report.halt ? [haltMarkdown(report.halt), ''] : []),
    `### ${icon} svc-gitops apply${state}`,
    '',
    `Plan \`${result.plan_id.slice(0, 12)}\` against ${markdownUrl(report.dashboard)}, approved by ${report.approval}, ${result.calls} call(s).`,
    '',
    '| done | failed | skipped | blocked |',
    '|---:|---:|---:|---:|',
    `| ${withUnverified(counts.done, unverifiedDone)} | ${counts.failed} | ${withUnverified(counts.skipped, unverifiedSkipped)} | ${counts.blocked} |`,
  ];
  for (const status of ['failed', 'blocked', 'skipped'] as const) {
    const groups = groupByCode(result.outcomes, status);
    if (groups.length === 0) continue;
    lines.push(
      '',
      `<details><summary>${status}: ${counts[status]}</summary>`,
      '',
      '| code | action | message |',
      '|---|---|---|',
    );
    for (const [code, outcomes] of groups) {
      for (const outcome of outcomes.slice(0, LIST_LIMIT)) {
        lines.push(
          `| ${escapeMarkdown(code)} | ${actionMarkdown(outcome.action)} | ${escapeMarkdown(outcomeMessage(outcome))} |`,
        );
      }
      if (outcomes.length > LIST_LIMIT)
        lines.push(`| ${escapeMarkdown(code)} | … and ${outcomes.length - LIST_LIMIT} more | |`);
    }
    lines.push('', '</details>');
  }
  lines.push(...healthMarkdown(result));
  if (report.reviewed) {
    const { notNeeded, unreviewed } = report.reviewed;
    lines.push('', `**Reviewed but no longer needed:** ${notNeeded.length}`);
    for (const action of notNeeded.slice(0, LIST_LIMIT)) lines.push(`- ${actionMarkdown(action)}`);
    lines.push('', `**New, not reviewed (not applied):** ${unreviewed.length}`);
    for (const action of unreviewed.slice(0, LIST_LIMIT)) lines.push(`- ${actionMarkdown(action)}`);
  }
  if (report.verificationError) {
    lines.push(
      '',
      `> ⚠️ The re-read after applying failed (${escapeMarkdown(report.verificationError.code)}); outcomes are unverified.`,
    );
  }
  if (report.verificationSkipped) {
    lines.push('', `> ⚠️ ${escapeMarkdown(unconfirmedNote(report.verificationSkipped))}`);
  }
  for (const warning of report.warnings) lines.push('', `> ⚠️ ${escapeMarkdown(warning)}`);
  // The next step is our own text (a count at most): its code span stays markup.
  if (nextStep) lines.push('', nextStep);
  return `${lines.join('\n')}\n`;
}
