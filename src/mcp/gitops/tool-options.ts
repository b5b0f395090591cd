import type { ConfirmationTokens } from '../tokens.js';
import type { PlanStore } from './plan-store.js';
import type { ToolSessions } from './sessions.js';

/** What every GitOps tool is built with: a leaf, so each tool's file imports it without a cycle. */
export interface GitopsToolOptions {
  /** Tool name prefix: the product name (`svc` → `svc_plan`). */
  prefix: string;
  /** The engine's sessions (throws while the server is not connected). */
  sessions: () => ToolSessions;
  tokens: ConfirmationTokens;
  /** The server's clock (a preview's `at` must not be before it). */
  now: () => Date;
  plans: PlanStore;
  safeMode: boolean;
}

/** The markdown a tool result carries: room for a big plan, well below the default size limit. */
export const MARKDOWN_CAP = 60_000;

/** Reads of the working directory or the session's plans: nothing beyond the server. */
export const READ = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
