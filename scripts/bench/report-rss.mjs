// Preloaded into a benchmarked process (node --import): on exit, writes its peak RSS in KiB to
// the file named by SVC_BENCH_RSS_FILE, so the benchmark measures the process, not itself.
import { writeFileSync } from 'node:fs';

const file = process.env.SVC_BENCH_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
