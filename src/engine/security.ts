import { fleetFeedItems, type PlanOptions } from '../plan/index.js';
import { checkFeedSource, loadFeed } from '../security/index.js';
import type { DesiredState, LiveState } from '../types.js';

export interface SecurityFeedOptions {
  /** Absolute: the feed cache lives in `<stateDir>/feeds/`. */
  stateDir: string;
  apiKey?: string | undefined;
  now: Date;
  signal?: AbortSignal | undefined;
  onWarning?: ((message: string) => void) | undefined;
}

/** Reads the feed for one live state, keeping only the advisories of its items. */
export type SecurityFeedLoader = (live: LiveState) => Promise<PlanOptions['security']>;

/**
 * The advisories a plan needs when the desired state names a vulnerability feed (undefined
 * otherwise): read whole or refused (FEED_INVALID). With `live`, only the advisories of its
 * items are kept, which is all a plan of it asks for (a 160 MB feed holds ~42,500 records; a
 * fleet's items name a small share of them).
 */
export async function loadSecurityFeed(
  desired: DesiredState,
  options: SecurityFeedOptions,
  live?: LiveState,
): Promise<PlanOptions['security']> {
  if (!desired.security) return undefined;
  const keep = live ? fleetFeedItems(live) : undefined;
  const { advisories, feed } = await loadFeed(desired.security, { ...options, keep });
  return { advisories, feed };
}

/**
 * For the plan use case: the feed's source checked now (a missing file or API key is refused
 * before the dashboard is read), and a loader that reads the feed once the live state is known.
 * A malformed feed is found by that read, after the dashboard's, and refuses the plan then.
 */
export function prepareSecurityFeed(
  desired: DesiredState,
  options: SecurityFeedOptions,
): SecurityFeedLoader | undefined {
  if (!desired.security) return undefined;
  checkFeedSource(desired.security, options.apiKey);
  return (live) => loadSecurityFeed(desired, options, live);
}
