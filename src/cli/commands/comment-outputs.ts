import { resolve } from 'node:path';
import { planOutputs } from '../../github/index.js';
import { planJsonChunks, planTextChunks } from '../../render/index.js';
import type { CliContext } from '../context.js';
import { writeFileAtomic } from '../write-file.js';
import type { CommentFlags } from './comment-flags.js';
import type { Obtained } from './comment-obtain.js';

/** `plan.json` → `plan.txt`; any other name gets `.txt` added. */
export function textPlanPath(jsonPath: string): string {
  return /\.json$/i.test(jsonPath) ? jsonPath.replace(/\.json$/i, '.txt') : `${jsonPath}.txt`;
}

/**
 * With `--out`, a plan made now saved for the artifact: the JSON plan and, since the comment is
 * capped, the whole plan for people beside it.
 */
export function saveForArtifact(ctx: CliContext, flags: CommentFlags, obtained: Obtained): void {
  if (!flags.out || !('plan' in obtained)) return;
  writeFileAtomic(ctx.fs, ctx.cwd, flags.out, planJsonChunks(obtained.plan));
  writeFileAtomic(ctx.fs, ctx.cwd, textPlanPath(flags.out), planTextChunks(obtained.plan));
}

/** The step outputs: the plan's counts and the plan files' absolute paths. */
export function commentOutputs(
  ctx: CliContext,
  flags: CommentFlags,
  obtained: Obtained,
): Record<string, string> {
  const outputs: Record<string, string> = 'plan' in obtained ? planOutputs(obtained.plan) : {};
  if (flags.planFile) outputs['plan-file'] = resolve(ctx.cwd, flags.planFile);
  else if (flags.out) {
    outputs['plan-file'] = resolve(ctx.cwd, flags.out);
    if ('plan' in obtained) outputs['plan-text-file'] = resolve(ctx.cwd, textPlanPath(flags.out));
  }
  return outputs;
}
