// Preloaded into a benchmarked process (node --import): on exit, writes its peak RSS in KiB and
// the CPU time it used (user + system, ms) as JSON to the file named by SVC_BENCH_RSS_FILE, so the
// benchmark measures the process, not itself.
import { writeFileSync } from 'node:fs';

const file = process.env.SVC_BENCH_RSS_FILE;
if (file)
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(
      file,
      JSON.stringify({ maxRssKb: usage.maxRSS, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000 }),
    );
  });
