import type { ConfirmationTokens } from '../tokens.js';
import type { GitopsEngine } from './engine.js';
import type { PlanStore } from './plan-store.js';

/** What every GitOps tool is built with: a leaf, so each tool's file imports it without a cycle. */
export interface GitopsToolOptions {
  /** Tool name prefix: the product name (`svc` → `svc_plan`). */
  prefix: string;
  engine: () => GitopsEngine;
  tokens: ConfirmationTokens;
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
