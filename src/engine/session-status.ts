import { resolve } from 'node:path';
import { DEFAULT_STATE_DIR, historyPath, readHistory } from '../apply/index.js';
import { deriveStatus } from '../plan/index.js';
import type { StatusReport } from '../types.js';
import { type PlanDeps, planUseCase } from './session-plan.js';
import type { PlanRequest, SessionPlan } from './session-types.js';

export interface SessionStatus extends SessionPlan {
  status: StatusReport;
  /** The apply history file the failures were read from (it may not exist yet). */
  historyFile: string;
}

/**
 * The status use case: a plan made now (the same as `plan` and `drift`, so the rollout state is
 * read and recorded as theirs is), and the last apply's failures from the history file, derived
 * into groups by the planner's pure `deriveStatus`. A history line that is not a record is a
 * warning: the status of the rest still stands.
 */
export async function statusUseCase(deps: PlanDeps, request: PlanRequest): Promise<SessionStatus> {
  const { options, events } = deps;
  const planned = await planUseCase(deps, request);
  const stateDir = resolve(options.cwd, options.stateDir ?? DEFAULT_STATE_DIR);
  const historyFile = historyPath(stateDir, deps.settings().historyFile);
  const read = readHistory(options.fs, historyFile);
  for (const problem of read.problems)
    events.warning?.(`${historyFile}:${problem.line}: not a history record (${problem.message}); skipped`);
  const status = deriveStatus({
    plan: planned.plan,
    live: planned.live,
    desired: planned.desired,
    history: read.records,
  });
  return { ...planned, status, historyFile };
}
