import type { PlanOptions } from '../plan/index.js';
import { loadFeed } from '../security/index.js';
import type { DesiredState } from '../types.js';

export interface SecurityFeedOptions {
  /** Absolute: the feed cache lives in `<stateDir>/feeds/`. */
  stateDir: string;
  apiKey?: string | undefined;
  now: Date;
  signal?: AbortSignal | undefined;
  onWarning?: ((message: string) => void) | undefined;
}

/**
 * The advisories a plan needs when the desired state names a vulnerability feed (undefined
 * otherwise): read whole or refused (FEED_INVALID), before the dashboard is read, so a bad feed
 * costs no dashboard calls.
 */
export async function loadSecurityFeed(
  desired: DesiredState,
  options: SecurityFeedOptions,
): Promise<PlanOptions['security']> {
  if (!desired.security) return undefined;
  const { advisories, feed } = await loadFeed(desired.security, options);
  return { advisories, feed };
}
