import type { DashboardClient } from '../dashboard/index.js';
import type { ConfirmationTokens } from './tokens.js';

/** What every ability tool needs; a leaf so the call and confirmation paths can name it. */
export interface AbilityToolOptions {
  client: DashboardClient;
  /** The GitOps tools' prefix (`svc`, or `--namespace`), named in the descriptions. */
  prefix: string;
  tokens: ConfirmationTokens;
  requireUserConfirmation: boolean;
  /** Which abilities are gated (confirmation, safe mode): see isGated. */
  gating: Gating;
  /** `compact`: descriptions cut to 60 characters (the vendor's schemaVerbosity). */
  schemaVerbosity: 'standard' | 'compact';
}

/** `writes`: every write but a maintenance refresh (ours); `annotations`: as the catalogue says (the vendor's). */
export type Gating = 'writes' | 'annotations';
