/**
 * The vulnerability feed: read streamed (Wordfence Intelligence v3, or svc-gitops' own format),
 * downloaded with undici and cached in the state directory. The planner matches the advisories
 * against pending updates (plan/security.ts); nothing here plans, prints or exits.
 */
export { checkFeedUrl, downloadFeed } from './download.js';
export { checkFeedSource, type LoadedFeed, type LoadFeedOptions, loadFeed } from './load.js';
export { type FeedFormat, type FeedRead, type ReadFeedOptions, readFeedFile } from './read.js';
export { createSplitter, MAX_RECORD_BYTES, SplitError } from './split.js';
export type { FeedFilter } from './wordfence.js';
