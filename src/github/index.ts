/**
 * GitHub integration: the public surface of src/github. Imports only types, errors, node
 * built-ins, undici and render's index (to cut bodies); comment and issue markdown is built by
 * render, and the CLI composes the two.
 */
export {
  type ActionsRun,
  actionsRun,
  type Env,
  eventCommitSha,
  githubClientFromEnv,
  githubToken,
  pullRequestBase,
  pullRequestNumber,
  repositoryFromEnv,
} from './actions-env.js';
export {
  createGitHubClient,
  DEFAULT_API_URL,
  type GitHubClient,
  type GitHubClientOptions,
  type TokenUser,
} from './client.js';
export { type DriftIssueRequest, type DriftIssueResult, upsertDriftIssue } from './drift-issue.js';
export {
  type HoldPullRequest,
  type HoldPullRequestResult,
  upsertHoldPullRequest,
} from './hold-pull-request.js';
export { configKey, hasMarker, marker } from './marker.js';
export { appendOutputs, formatOutput } from './outputs.js';
export { planOutputs, publishToRun } from './publish.js';
export { parseRepository, type Repository } from './repository.js';
export { appendStepSummary, STEP_SUMMARY_LIMIT_BYTES } from './step-summary.js';
export { type StickyCommentResult, upsertStickyComment } from './sticky-comment.js';
