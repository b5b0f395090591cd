import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO, tempDir } from '../e2e/helpers.js';

const MAIN = join(REPO, 'src/cli/main.ts');
const TSX = import.meta.resolve('tsx');

/** Five applies to a 10,000-site fleet: 50,000 records, about 21 MB of JSON Lines. */
const RUNS = 5;
const SITES = 10_000;
/**
 * The child's old-generation heap, in MB: the CLI itself needs about 30; holding the file's
 * records (as a whole-file read does) needs well over 100 and dies here with an out-of-memory abort.
 */
const HEAP_MB = 64;

function historyLines(): string {
  const lines: string[] = [];
  for (let run = 0; run < RUNS; run++) {
    for (let site = 1; site <= SITES; site++) {
      const failed = site % 997 === 0;
      lines.push(
        JSON.stringify({
          time: `2026-11-2${run}T10:05:00.000Z`,
          started_at: `2026-11-2${run}T10:00:00.000Z`,
          plan_id: String(run).repeat(64),
          dashboard: 'https://dash.example.test',
          site_id: site,
          site_url: `https://site${site}.fleet.example.test`,
          site_name: `Site ${site}`,
          op: 'update',
          kind: 'plugin',
          slug: 'woocommerce/woocommerce.php',
          name: 'WooCommerce',
          from: '9.3.1',
          to: '9.3.2',
          wave: 'everyone',
          outcome: failed ? 'failed' : 'done',
          ...(failed ? { code: 'svc_update_failed' } : {}),
        }),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** `svc-gitops history --file FILE ARGS` from the sources under a small heap; stdout to a file. */
async function history(
  dir: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const outFile = join(dir, `out-${args.join('-') || 'text'}.txt`);
  const out = openSync(outFile, 'w');
  const child = spawn(
    process.execPath,
    [`--max-old-space-size=${HEAP_MB}`, '--import', TSX, MAIN, 'history', '--file', 'history.jsonl', ...args],
    { cwd: dir, env: { ...process.env, HOME: dir, NO_COLOR: '1' }, stdio: ['ignore', out, 'pipe'] },
  );
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  closeSync(out);
  return { code, stdout: readFileSync(outFile, 'utf8'), stderr };
}

/**
 * `history` streams the file: a history of 50,000 records prints whole in a process whose heap
 * could not hold them. No time is judged; the heap limit is the verdict.
 */
describe('history of 50,000 records in bounded memory', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('svc-gitops-history-scale-');
    writeFileSync(join(dir, 'history.jsonl'), historyLines());
  });

  it('text: one summary line per run, then its rows', async () => {
    const run = await history(dir, []);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    const summaries = lines.filter((line) => line.startsWith('Apply '));
    expect(summaries).toHaveLength(RUNS);
    expect(summaries[0]).toBe(
      `Apply 2026-11-20 10:00:00Z → 10:05:00Z, plan ${'0'.repeat(12)}, https://dash.example.test: 10,000 actions on 10,000 sites: 9,990 done, 10 failed`,
    );
    const rows = lines.filter((line) => /^ {2}\d+ site\d+\.fleet\.example\.test \(Site \d+\) /.test(line));
    expect(rows).toHaveLength(RUNS * SITES);
    // Summary, column heads and rows per run, a blank line between runs.
    expect(lines).toHaveLength(RUNS * (SITES + 2) + RUNS - 1);
  }, 120_000);

  it('json: one document holding every record', async () => {
    const run = await history(dir, ['--format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const document = JSON.parse(run.stdout) as { records: { site_id: number; outcome: string }[] };
    expect(document.records).toHaveLength(RUNS * SITES);
    expect(
      document.records.filter((record) => record.site_id === 9970).map((record) => record.outcome),
    ).toEqual(Array.from({ length: RUNS }, () => 'failed'));
  }, 120_000);

  it('jsonl: the kept lines as the file holds them', async () => {
    const all = await history(dir, ['--format', 'jsonl']);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toBe(readFileSync(join(dir, 'history.jsonl'), 'utf8'));
  }, 120_000);
});
