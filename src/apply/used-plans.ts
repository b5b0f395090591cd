import type * as nodeFs from 'node:fs';
import { join } from 'node:path';
import { SvcError } from '../errors.js';

/**
 * Single use of saved plans: a plan is marked used, atomically (O_EXCL), right before its
 * first call goes out. A second apply of the same file is refused even if the first one is
 * still running or was killed (its remaining work is what `--resume` is for).
 */

function markerPath(dir: string, planId: string): string {
  if (!/^[0-9a-f]{16,128}$/i.test(planId)) {
    throw new SvcError('PLAN_INVALID', 'the plan id is not a hex digest');
  }
  return join(dir, `${planId}.json`);
}

export function isPlanUsed(fs: typeof nodeFs, dir: string, planId: string): boolean {
  return fs.existsSync(markerPath(dir, planId));
}

export function markPlanUsed(fs: typeof nodeFs, dir: string, planId: string, at: Date): void {
  try {
    fs.writeFileSync(
      markerPath(dir, planId),
      `${JSON.stringify({ plan_id: planId, used_at: at.toISOString() })}\n`,
      {
        flag: 'wx',
        mode: 0o600,
      },
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw alreadyUsed(planId);
    throw new SvcError('IO_ERROR', `cannot record the plan as used in ${dir}`, { cause: error });
  }
}

/** A saved plan is single use: `details.reason` plan-used, each front end words its way on. */
export function alreadyUsed(planId: string): SvcError {
  return new SvcError(
    'PREVIEW_REQUIRED',
    `plan ${planId.slice(0, 12)} was already applied (a saved plan is single use)`,
    { details: { reason: 'plan-used', plan_id: planId } },
  );
}
