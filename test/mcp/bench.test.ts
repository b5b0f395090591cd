import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { McpBenchFigures } from '../../scripts/bench/mcp.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

const root = join(import.meta.dirname, '../..');

/**
 * The tool-server benchmark (`npm run bench:mcp`), short and seeded: 100 sites, one round, 110
 * calls. It checks the script still runs end to end and reports sane figures; it asserts no
 * timing (the full run's ratios are in docs/benchmarks.md).
 */
describe('bench:mcp, a short seeded run', () => {
  it('runs both paths on the same bytes and reports ratios, RSS and retained heap after 100 and after all calls', async () => {
    const out = join(tempDirForFile('svc-gitops-bench-mcp-test-'), 'figures.json');
    const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SVC_')));
    const args = ['--sites', '100', '--rounds', '1', '--calls', '110', '--concurrency', '2', '--json', out];
    const { stdout } = await promisify(execFile)(
      process.execPath,
      // tsx's own command, as `npm run bench:mcp` runs it: the server it starts over stdio (from
      // another working directory) inherits the loader by absolute path.
      [join(root, 'node_modules/tsx/dist/cli.mjs'), 'scripts/bench/mcp.ts', ...args],
      // A backstop for a hung run, not a measurement.
      { cwd: root, env: base, timeout: 90_000 },
    );
    expect(stdout).toMatch(/like with like: on every page both paths deliver the same bytes/);
    for (const label of [
      'in-memory transport',
      'a minimal SDK server',
      'in-memory transport, 20 ms',
      'stdio (child process)',
    ]) {
      expect(stdout).toContain(`through the library, ${label}`);
    }
    expect(stdout).toMatch(
      /the library alone: \d+ µs CPU per page; per page over it, CPU: the tool server [+-]\d+ µs/,
    );
    const figures = JSON.parse(readFileSync(out, 'utf8')) as McpBenchFigures;
    expect(figures).toMatchObject({ sites: 100, pages: 3 });
    expect(figures.answerBytesPerPage).toBeGreaterThan(10_000);
    expect(figures.libraryCpuUsPerPage).toBeGreaterThan(0);
    expect(Object.keys(figures.ratios).sort()).toEqual([
      'inMemory',
      'inMemoryLatency',
      'minimalSdk',
      'stdio',
    ]);
    for (const ratio of Object.values(figures.ratios)) {
      for (const value of [ratio.best, ratio.median, ratio.cpu]) {
        expect(Number.isFinite(value) && value > 0).toBe(true);
      }
    }
    expect(figures.rss.map((sample) => sample.calls)).toEqual([100, 110]);
    expect(figures.heap.map((sample) => sample.calls)).toEqual([100, 110]);
    for (const sample of figures.heap) expect(sample.heapMb).toBeGreaterThan(1);
    for (const sample of figures.rss) {
      expect(sample.rssMb).toBeGreaterThan(20);
      expect(sample.peakMb).toBeGreaterThanOrEqual(sample.rssMb);
    }
  }, 120_000);
});
