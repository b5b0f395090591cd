/**
 * The parsing child of scripts/bench/security-feed.ts, bundled and run by plain node (as the
 * installed CLI runs, without the TypeScript loader's own memory): reads the feed named on the
 * command line and prints its figures, peak RSS included.
 */
import { readFeedFile } from '../../src/security/index.js';

const path = process.argv[2] ?? '';
const started = performance.now();
const read = await readFeedFile(path, 'wordfence');
process.stdout.write(
  `${JSON.stringify({
    records: read.records,
    advisories: read.advisories.length,
    bytes: read.bytes,
    ms: performance.now() - started,
    maxRssKb: process.resourceUsage().maxRSS,
  })}\n`,
);
