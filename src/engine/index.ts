/**
 * The engine every front end shares: desired state from files, a client for the configured
 * dashboard, the live read (with `--target` and refresh), a plan made now, and the report of an
 * apply. The approval paths and the run itself are apply's (re-exported by src/index.ts).
 * Nothing here prints, exits or reads the environment.
 */

/**
 * The few helpers of config and the planner that front ends read their own input with (the
 * config path, a desired state's load for its diagnostics, `import`, `--at` durations, a plan
 * file's id, the desired-state schema the tool server offers as a resource, the canonical JSON
 * its confirmation tokens bind arguments with), passed on so a front end needs no other module
 * than the engine.
 */
export {
  DESIRED_STATE_SCHEMA,
  DESIRED_STATE_SCHEMA_URL,
  importDesiredState,
  LIMITS,
  loadDesiredState,
  resolveConfigPath,
} from '../config/index.js';
export { canonicalJson, durationMs, normaliseAddress, verifyPlanId } from '../plan/index.js';
export { type CompareToBaseOptions, compareToBase } from './base-plan.js';
export { type OpenDashboardOptions, openDashboard } from './dashboard.js';
export {
  configAtHand,
  type DesiredLoad,
  type LoadDesiredOptions,
  loadDesired,
  requireDesired,
} from './desired.js';
export { type ExplainQuery, type Explanation, explainPlan } from './explain.js';
export { judgeNames, type NamesToJudge, refusedNames } from './judge-names.js';
export { type ReviewRefusal, type ReviewRefusalCode, refusalsBeforeMerge } from './merge-refusals.js';
export { readPlanFile } from './plan-file.js';
export { type LiveRead, type PlanNowOptions, planNow, type ReadLiveOptions, readLive } from './plan-now.js';
export {
  type ProposedQuarantine,
  type QuarantineProposal,
  quarantineProposal,
} from './quarantine-proposal.js';
export { applyReport } from './report.js';
export {
  finishRollout,
  type HealthCheckEvents,
  type PlannedRollout,
  type PrepareRolloutOptions,
  prepareRollout,
  type RolloutContext,
  recordApply,
  stillUnhealthy,
  usesRolloutState,
} from './rollout.js';
export { readRolloutState, rolloutStatePath, withRolloutLock, writeRolloutState } from './rollout-file.js';
export {
  loadSecurityFeed,
  prepareSecurityFeed,
  type SecurityFeedLoader,
  type SecurityFeedOptions,
} from './security.js';
export { type Applied, type ApplyRunOptions, openSession, type Session } from './session.js';
export type { Approval, ApproveRequest } from './session-approve.js';
export type { SessionStatus } from './session-status.js';
export type { PlanRequest, SessionEvents, SessionOptions, SessionPlan } from './session-types.js';
export { resolveTargets } from './targets.js';
export { type InstalledSeen, type UnknownName, unknownNames } from './unknown-names.js';
export { VERSION } from './version.js';
