/**
 * Public surface of render: pure functions from plans, apply reports and diagnostics to text,
 * markdown and JSON, and the safe-text guards every dashboard string passes before it is shown.
 */

export { type PhaseView, renderApplyCalls } from './apply-calls.js';
export { renderApplyCallsJson } from './apply-calls-json.js';
export type { NextStepWords } from './apply-ending.js';
export { historyArtifactLine } from './apply-history-link.js';
export { renderApplyJson } from './apply-json.js';
export { renderApplyMarkdown } from './apply-markdown.js';
export { type ApplyReport, countNotStarted, countStatuses } from './apply-report.js';
export { renderApplyText } from './apply-text.js';
export { type ChangeView, changeMarkdown, MAX_CHANGE_ROWS } from './change-markdown.js';
export { changeText } from './change-text.js';
export {
  type BodyParts,
  type CappedBody,
  capBody,
  DEFAULT_BODY_BUDGET,
  GITHUB_BODY_LIMIT,
} from './comment-budget.js';
export {
  countDiagnostics,
  DIAGNOSTIC_FORMATS,
  type DiagnosticFormat,
  renderDiagnosticsGithub,
  renderDiagnosticsJson,
  renderDiagnosticsText,
} from './diagnostics.js';
export { type DriftReportInput, driftIssueBody, driftResolvedComment, driftTitle } from './drift-report.js';
export {
  REPORT_FORMATS,
  type RenderPlanOptions,
  type ReportFormat,
  renderApplyReport,
  renderPlan,
} from './formats.js';
export { type ItemRow, itemRows, versionMove } from './item-rows.js';
export {
  type ArtifactRef,
  artifactHint,
  type CommentFrame,
  type CommentRefusal,
  type PlanCommentInput,
  planCommentFrame,
  planFailedComment,
  validationComment,
} from './plan-comment.js';
export { type ChangeRow, comparePlans, type PlanComparison } from './plan-compare.js';
export { type GroupBy, type ItemGroup, type PlanGroup, planGroups, type SiteGroup } from './plan-groups.js';
export { type PlanJsonOptions, planJsonChunks, renderPlanJson } from './plan-json.js';
export { DEFAULT_MARKDOWN_CAP, type PlanMarkdownOptions, renderPlanMarkdown } from './plan-markdown.js';
export { type PlanTextOptions, planTextChunks, renderPlanText } from './plan-text.js';
export { shortId } from './plan-words.js';
export {
  type QuarantineEvidence,
  type QuarantinePullRequestInput,
  quarantinePullRequestBody,
  quarantinePullRequestTitle,
} from './quarantine-pr.js';
export { holdYaml } from './quarantines.js';
export { haltMarkdown, haltText } from './rollout-halt.js';
export { safeText, terminalText } from './safe-text.js';
export { renderStatusMarkdown, type StatusMarkdownOptions, statusTitle } from './status-markdown.js';
export { renderStatusText } from './status-text.js';
