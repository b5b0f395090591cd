/**
 * GitHub integration: the public surface of src/github. Imports only types, errors, node
 * built-ins and undici; the CLI composes these with the planner and the markdown renderer.
 */
export {
  type ActionsRun,
  actionsRun,
  type Env,
  eventCommitSha,
  githubClientFromEnv,
  githubToken,
  pullRequestNumber,
  repositoryFromEnv,
} from './actions-env.js';
export {
  type BodyParts,
  type CappedBody,
  capBody,
  DEFAULT_BODY_BUDGET,
  GITHUB_BODY_LIMIT,
} from './body-limit.js';
export {
  createGitHubClient,
  DEFAULT_API_URL,
  type GitHubClient,
  type GitHubClientOptions,
  type TokenUser,
} from './client.js';
export { type DriftIssueRequest, type DriftIssueResult, upsertDriftIssue } from './drift-issue.js';
export { driftIssueBody, driftResolvedComment, driftTitle } from './drift-report.js';
export { configKey, hasMarker, marker } from './marker.js';
export { appendOutputs, formatOutput } from './outputs.js';
export {
  type ArtifactRef,
  artifactHint,
  type CommentFrame,
  type PlanCommentInput,
  planCommentFrame,
  planFailedComment,
  validationComment,
} from './plan-comment.js';
export { planOutputs, publishToRun } from './publish.js';
export { parseRepository, type Repository } from './repository.js';
export { appendStepSummary, STEP_SUMMARY_LIMIT_BYTES } from './step-summary.js';
export { type StickyCommentResult, upsertStickyComment } from './sticky-comment.js';
