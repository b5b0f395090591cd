/**
 * Public surface of apply: the four approval paths (each returns an `ApprovalDecision`, never
 * sends a write), `runApproved` (lock → single use and live re-check of a saved plan → journal
 * → calls → re-read), and `applyPlan` for callers that hold the lock and journal themselves.
 * Nothing here prints.
 */

export { DASHBOARD_UNREACHABLE } from '../types.js';
export { type ApplyOptions, applyPlan } from './apply-plan.js';
export { approvePrompt, type PromptApprovalOptions } from './approve-prompt.js';
export {
  approveResume,
  approveResumeFromJournal,
  type JournalResumeOptions,
  type ResumeApprovalOptions,
} from './approve-resume.js';
export { approveReviewed, type ReviewedApprovalOptions } from './approve-reviewed.js';
export { approveSaved, type SavedApprovalOptions } from './approve-saved.js';
export type { ApplyCall, CallPhase } from './batch.js';
export { batchPlan } from './batch.js';
export {
  type ApprovalDecision,
  type ApprovalPath,
  type Approved,
  type Planned,
  REFUSAL_CODES,
  type RefusalCode,
  type Refused,
  refusalError,
} from './decision.js';
export type { ApplyEvent, ApplyProgress } from './events.js';
export {
  checkIntegrity,
  isExpired,
} from './guard.js';
export type { HeldBack } from './held-back.js';
export { HISTORY_FILE, type HistoryRecord, historyPath } from './history.js';
export {
  filterHistory,
  type HistoryFilter,
  type HistoryProblem,
  type HistoryRead,
  type HistoryVisitor,
  historyFilter,
  readHistory,
  scanHistory,
} from './history-read.js';
export { type ApplyJournal, type JournalRecord, openJournal, readJournal } from './journal.js';
export { acquireLock, type HeldLock } from './lock.js';
export { type ApplyLockPlace, applyLockPlace } from './lock-dir.js';
export { type MergeRefusal, refusalsAtMerge } from './merge-refusals.js';
export { checkPages, type PageSite } from './page-checks.js';
export { plannedCalls, type RunApprovedOptions, runApproved } from './run.js';
export { DEFAULT_STATE_DIR, type StatePaths, stateDirOf, statePaths } from './state-dir.js';
export {
  type FailureLimits,
  failureLimit,
  type HealthLimits,
  type HeldBackActions,
  heldBackOf,
  unhealthyLimit,
} from './wave-limits.js';
