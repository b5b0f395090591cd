import { recordNotified, unnotifiedMoves } from '../plan/index.js';
import type { DesiredState, Plan, RolloutState } from '../types.js';
import type { RolloutContext } from './rollout.js';
import { readRolloutState, rolloutStatePath, withRolloutLock, writeRolloutState } from './rollout-file.js';

/** Where an apply's notifications remember what they said: its config's rollout state file. */
export interface NotifyMemory {
  ctx: RolloutContext;
  desired: DesiredState;
  configPath: string;
}

/**
 * The vulnerable, no-fix moves an apply's notification names: those with a (site, advisory) pair
 * the rollout state does not remember. Without a memory (no config, no feed) or when the state
 * cannot be read, every move: notifying again is the safe side of a lost memory.
 */
export function movesToNotify(
  plan: Plan,
  memory: NotifyMemory | undefined,
): ReturnType<typeof unnotifiedMoves> {
  const state = memory ? rememberedState(memory) : undefined;
  return unnotifiedMoves(plan, state);
}

function rememberedState(memory: NotifyMemory): RolloutState | undefined {
  if (!memory.desired.security) return undefined;
  try {
    const path = rolloutStatePath(memory.ctx.cwd, memory.configPath);
    return readRolloutState(memory.ctx.fs, path, memory.ctx.now()).state;
  } catch {
    return undefined;
  }
}

/**
 * After a delivered notification: the plan's vulnerable, no-fix sites are remembered in the
 * rollout state, under its lock (another run's records are kept: the state is read again inside
 * it). Returns the path when the file changed. A state that cannot be read or written is left as
 * it is: the next apply notifies again.
 */
export async function rememberNotified(memory: NotifyMemory, plan: Plan): Promise<string | undefined> {
  if (!memory.desired.security) return undefined;
  const { ctx } = memory;
  const path = rolloutStatePath(ctx.cwd, memory.configPath);
  const now = ctx.now();
  try {
    return await withRolloutLock(
      ctx.fs,
      path,
      { onWarning: ctx.onWarning ?? (() => {}), timers: ctx.timers, signal: ctx.signal },
      () => {
        const { state, text } = readRolloutState(ctx.fs, path, now);
        return writeRolloutState(ctx.fs, path, recordNotified(state, plan, now), text) ? path : undefined;
      },
    );
  } catch (error) {
    ctx.onWarning?.(
      `the notified vulnerable sites were not remembered (${(error as Error).message}); the next apply notifies them again`,
    );
    return undefined;
  }
}
