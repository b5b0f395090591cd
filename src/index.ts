/**
 * svc-gitops as a library: the surface the CLI and every other front end are built on.
 *
 *   loadSettings → loadDesired / requireDesired → openDashboard → planNow (readLive + createPlan)
 *   → approvePrompt | approveSaved | approveReviewed | approveResume (a decision, never a write)
 *   → runApproved (lock, journal, calls, confirming re-read) → applyReport → render*
 *
 * No function here prints, exits or reads `process.env`: settings take the environment as an
 * argument, warnings and progress arrive through callbacks, failures are `SvcError`s with a
 * closed `code`, and approval refusals are returned as `Refused` decisions.
 */

export {
  type ApplyEvent,
  type ApplyLockPlace,
  type ApplyOptions,
  type ApplyProgress,
  type ApprovalDecision,
  type ApprovalParameters,
  type ApprovalPath,
  type Approved,
  applyLockPlace,
  applyPlan,
  approvePrompt,
  approveResume,
  approveResumeFromJournal,
  approveReviewed,
  approveSaved,
  batchPlan,
  type CallPhase,
  checkApprovalParameters,
  checkIntegrity,
  DEFAULT_STATE_DIR,
  type HeldBack,
  isExpired,
  type MergeRefusal,
  type Planned,
  type PromptApprovalOptions,
  plannedCalls,
  REFUSAL_CODES,
  type RefusalCode,
  type Refused,
  type ResumeApprovalOptions,
  type ReviewedApprovalOptions,
  type RunApprovedOptions,
  refusalError,
  refusalsAtMerge,
  runApproved,
  type SavedApprovalOptions,
  type StatePaths,
  stateDirOf,
  statePaths,
  type VariableOf,
} from './apply/index.js';
export type { DashboardClient } from './dashboard/index.js';
export {
  applyReport,
  configAtHand,
  type DesiredLoad,
  finishRollout,
  type HealthCheckEvents,
  type LiveRead,
  type LoadDesiredOptions,
  loadDesired,
  type OpenDashboardOptions,
  openDashboard,
  type PlanNowOptions,
  type PlannedRollout,
  type PrepareRolloutOptions,
  planNow,
  prepareRollout,
  type ReadLiveOptions,
  type RolloutContext,
  readLive,
  readPlanFile,
  readRolloutState,
  recordApply,
  requireDesired,
  resolveTargets,
  rolloutStatePath,
  stillUnhealthy,
  usesRolloutState,
  writeRolloutState,
} from './engine/index.js';
export {
  type Diagnostic,
  ERROR_CODES,
  type ErrorCode,
  EXIT,
  isDashboardUnreachable,
  isSvcError,
  SvcError,
} from './errors.js';
export { createPlan, type PlanOptions, verifyPlanId } from './plan/index.js';
export {
  type ApplyReport,
  countDiagnostics,
  REPORT_FORMATS,
  type RenderPlanOptions,
  type ReportFormat,
  renderApplyReport,
  renderDiagnosticsJson,
  renderDiagnosticsText,
  renderPlan,
  renderPlanText,
} from './render/index.js';
export {
  type LoadedSettings,
  type LoadSettingsOptions,
  loadSettings,
  type Settings,
} from './settings/index.js';
export type {
  Action,
  ActionOutcome,
  ActionOutcomeCode,
  ActionStatus,
  ApplyResult,
  ApplyRun,
  DashboardCapabilities,
  DashboardSiteCode,
  DesiredState,
  HoldCode,
  LiveState,
  OutcomeCode,
  Plan,
  PlanNote,
  PlanSummary,
  StopCode,
  Verification,
} from './types.js';
export { DASHBOARD_UNREACHABLE, dashboardSiteCode, HOLD_CODES, OUTCOME_CODES, STOP_CODES } from './types.js';
