/**
 * The planner's public surface. Everything here is pure and synchronous.
 *
 * - createPlan: DesiredState + LiveState → Plan (see create.ts for the semantics)
 * - fingerprintSite / indexLiveState / fingerprintIndexed: the live facts a plan depends on;
 *   apply recomputes them from a fresh read and refuses a plan whose world moved
 * - planId / verifyPlanId: sha256 over the canonical (key-sorted) JSON of every field but `id`
 *   and the `--group-by` presentation (`group_by`, `groups`)
 * - compareVersions / versionLevel: PHP version_compare semantics, patch/minor/major levels
 * - matchesSelection: the site selection rules (ids, domains, host globs, include/exclude)
 * - summarise: a plan's counts, recounted from its actions (a saved plan's summary is checked)
 */
export { canonicalJson, canonicalSha256 } from '../canonical/index.js';
/** Durations as the desired state writes them (`90m`, `24h`): `plan --at +24h` reads them too. */
export { durationMs } from '../schedule/index.js';
export { firstAmbiguousDomain } from './ambiguous-domains.js';
export { brokenBySite, withholding } from './broken-ignores.js';
export { createPlan, type PlanOptions } from './create.js';
export { fingerprintIndexed, fingerprintSite } from './fingerprint.js';
export { DEFAULT_HEALTH, type SiteReading, siteProblem } from './health.js';
export { indexLiveState, type LiveIndex } from './live-index.js';
export { compareActions, compareNotes } from './order.js';
export { type ClosedGate, closedGate } from './plan-gates.js';
export { planId, verifyPlanId } from './plan-id.js';
export { previewRollout } from './preview.js';
export { healthChecksNeeded, type WaveCheck, wavesDone } from './rollout-checks.js';
export { recordNotified, unnotifiedMoves } from './rollout-notified.js';
export {
  adoptQuarantines,
  compileDesiredQuarantines,
  describeMove,
  type FoundQuarantine,
  quarantinesOfApply,
  recordQuarantines,
  splitKey,
} from './rollout-quarantine.js';
export {
  emptyRolloutState,
  mergeWaveRecords,
  observeVersions,
  parseRolloutState,
  type RolloutStateProblem,
  recordDoneWaves,
  recordHealthChecks,
  recordWaves,
  serialiseRolloutState,
  waveClock,
} from './rollout-state.js';
export { fleetFeedItems } from './security.js';
export { compileSelection, compileSelections, matchesSelection, normaliseAddress } from './select.js';
export { selectorNeeds } from './selectors.js';
export {
  classify,
  deriveStatus,
  STATUS_STATES,
  type StatusHistoryRecord,
  type StatusInput,
} from './status.js';
export { summarise } from './summary.js';
export { compareVersions, levelWithin, versionLevel, withinPin } from './versions.js';
export { vulnerableNoFixSites } from './vulnerable.js';
export { assignWaves, REMAINING_WAVE } from './waves.js';
