import type { Diagnostic } from '../../errors.js';
import {
  artifactHint,
  capBody,
  type PlanCommentInput,
  planCommentFrame,
  planFailedComment,
  renderDiagnosticsGithub,
  renderPlanMarkdown,
  validationComment,
} from '../../render/index.js';
import type { LiveState } from '../../types.js';
import type { Obtained } from './comment-obtain.js';

/** What every comment body carries: its marker, the config it is for, the time, the commit. */
export interface CommentCommon {
  marker: string;
  configKey: string;
  now: Date;
  commitSha?: string;
}

/**
 * The comment's body for what was obtained, and the lines printed with it (a workflow's
 * annotations for the desired state's problems). Paths become repository-relative with
 * `toRepoPath`: GitHub attaches annotations to files by that path.
 */
export function commentBody(
  obtained: Obtained,
  common: CommentCommon,
  artifact: PlanCommentInput['artifact'],
  toRepoPath: (file: string) => string,
): { body: string; printed: string } {
  if ('failed' in obtained) {
    const { code, message, hint } = obtained.failed;
    const failure = { code, message, ...(hint ? { hint } : {}) };
    return { body: planFailedComment({ ...common, failure }).body, printed: '' };
  }
  if ('diagnostics' in obtained) {
    return {
      body: validationComment({ ...common, diagnostics: obtained.diagnostics }, toRepoPath).body,
      printed: renderDiagnosticsGithub(obtained.diagnostics.map((d) => inRepository(d, toRepoPath))),
    };
  }
  return { body: planBody({ ...common, ...obtained, artifact }), printed: '' };
}

/** The diagnostic with repository-relative files. */
function inRepository(d: Diagnostic, toRepoPath: (file: string) => string): Diagnostic {
  const related = d.related?.map((r) => ({ ...r, file: toRepoPath(r.file) }));
  return { ...d, ...(d.file ? { file: toRepoPath(d.file) } : {}), ...(related ? { related } : {}) };
}

/** The rendered plan, capped to the room the comment's head and tail leave. */
function planBody(input: PlanCommentInput & { live?: LiveState }): string {
  const frame = planCommentFrame(input);
  const markdown = renderPlanMarkdown(input.plan, {
    maxChars: frame.room,
    fullPlanHint: artifactHint(input.artifact),
    haltAbove: true,
    // The frame holds the one title; with a change above, the plan is the backlog.
    heading: input.change ? '### The whole plan after the merge (backlog)' : '### The whole plan',
    ...(input.live ? { live: input.live } : {}),
  });
  return capBody({ head: frame.head, main: markdown.trim(), tail: frame.tail }).body;
}
