import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, startDemo, tempDir } from '../e2e/helpers.js';
import { cli } from '../helpers/cli.js';
import { fastClientEnv, sandboxPer } from '../helpers/sandbox.js';

interface Record_ {
  site_id: number;
  site_name?: string;
  started_at?: string;
  slug: string;
  op: string;
  outcome: string;
  code?: string;
  plan_id: string;
  from?: string;
  to?: string;
  time: string;
}

function lines(path: string): Record_[] {
  return readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record_);
}

/**
 * The apply history: every apply appends one line per started action (src/apply/history.ts),
 * and `history` prints them, filtered, reporting a malformed line as file:line.
 */
describe('apply history', () => {
  const sandbox = sandboxPer('test', () => startDemo('compat-6.1'));

  it('an apply appends done and failed records, and history --site prints only that site', async () => {
    const cwd = tempDir('svc-gitops-history-');
    copyFileSync(join(REPO, 'examples/minimal.yaml'), join(cwd, 'svc-gitops.yaml'));
    const env = { ...fastClientEnv(sandbox), HOME: tempDir(), SVC_SAFE_MODE: 'false' };
    // Site 23 (tyrell) fails its wordfence update; its other updates go through.
    const apply = await cli(['apply', '--auto-approve', '--target', '23'], { env, cwd });
    expect(apply.code, apply.stderr).toBe(1);
    const file = join(cwd, '.svc-gitops', 'history.jsonl');
    const records = lines(file);
    expect(records.length).toBeGreaterThan(1);
    expect(new Set(records.map((r) => r.site_id))).toEqual(new Set([23]));
    const failed = records.filter((r) => r.outcome === 'failed');
    expect(failed.map((r) => [r.slug, r.code])).toEqual([['wordfence/wordfence.php', 'svc_update_failed']]);
    expect(records.some((r) => r.outcome === 'done' && r.op === 'update' && r.from && r.to)).toBe(true);
    expect(new Set(records.map((r) => r.plan_id)).size).toBe(1);
    const raw = readFileSync(file, 'utf8');
    const secrets = env as Record<string, string | undefined>;
    for (const secret of [secrets.SVC_APP_PASSWORD, secrets.SVC_TOKEN]) {
      if (secret) expect(raw).not.toContain(secret);
    }

    // A second apply on another site appends: the first run's lines stay as they were.
    const other = await cli(['apply', '--auto-approve', '--target', '1'], { env, cwd });
    expect(other.code, other.stderr).toBe(0);
    expect(readFileSync(file, 'utf8').startsWith(raw)).toBe(true);
    expect(lines(file).some((r) => r.site_id === 1)).toBe(true);

    // Each record names its run (plan id, start and end) and the site as the dashboard lists it.
    const first = records[0] as Record_;
    expect(first.site_name).toBe('Tyrell');
    expect(Date.parse(first.started_at as string)).toBeLessThanOrEqual(Date.parse(first.time));
    expect(new Set(records.map((r) => `${r.started_at} ${r.time}`)).size).toBe(1);

    const text = await cli(['history', '--site', '23'], { env, cwd });
    expect(text.code, text.stderr).toBe(0);
    const rows = text.stdout.trimEnd().split('\n');
    // One run: its summary line, the column heads, then one row per record.
    expect(rows[0]).toMatch(
      new RegExp(
        `^Apply \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ → \\S+, plan ${first.plan_id.slice(0, 12)}, http\\S+: ${records.length} actions on 1 site: \\d+ done, 1 failed$`,
      ),
    );
    expect(rows[1]).toMatch(/^ {2}SITE\s+ITEM\s+ACTION\s+CHANGE\s+OUTCOME$/);
    expect(rows).toHaveLength(records.length + 2);
    expect(rows[2]).toMatch(/^ {2}23 tyrell\.demo\.test \(Tyrell\) /);
    expect(text.stdout).toContain('failed (svc_update_failed)');
    expect(text.stdout).not.toMatch(/^ {2}1 /m);
    // The same site by its domain, its address or its name.
    for (const site of ['tyrell.demo.test', 'https://tyrell.demo.test/', 'tyrell']) {
      expect((await cli(['history', '--site', site], { env, cwd })).stdout).toBe(text.stdout);
    }

    const json = await cli(
      ['history', '--site', '23', '--item', 'wordfence/wordfence.php', '--format', 'json'],
      {
        env,
        cwd,
      },
    );
    const document = JSON.parse(json.stdout) as { kind: string; records: Record_[]; problems: unknown[] };
    expect(document.kind).toBe('history');
    expect(document.records.map((r) => [r.site_id, r.outcome])).toEqual([[23, 'failed']]);
    expect(document.problems).toEqual([]);
  });

  it('SVC_HISTORY_FILE moves the file; a relative path is taken from the state directory', async () => {
    const cwd = tempDir('svc-gitops-history-');
    copyFileSync(join(REPO, 'examples/minimal.yaml'), join(cwd, 'svc-gitops.yaml'));
    const env = {
      ...fastClientEnv(sandbox),
      HOME: tempDir(),
      SVC_SAFE_MODE: 'false',
      SVC_HISTORY_FILE: 'audit/applies.jsonl',
    };
    const apply = await cli(['apply', '--auto-approve', '--target', '1'], { env, cwd });
    expect(apply.code, apply.stderr).toBe(0);
    expect(existsSync(join(cwd, '.svc-gitops', 'history.jsonl'))).toBe(false);
    expect(lines(join(cwd, '.svc-gitops', 'audit', 'applies.jsonl')).length).toBeGreaterThan(0);
    const text = await cli(['history'], { env, cwd });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^ {2}1 /m);
  });
});

describe('history reading', () => {
  const record = (site: number, time: string) =>
    JSON.stringify({
      time,
      plan_id: 'a'.repeat(64),
      dashboard: 'https://dash.example.test',
      site_id: site,
      site_url: `https://site${site}.example.test`,
      op: 'update',
      kind: 'plugin',
      slug: 'akismet/akismet.php',
      name: 'Akismet',
      from: '5.0',
      to: '5.1',
      outcome: 'done',
    });

  it('a malformed line is an error with file:line, and the good lines are still printed', async () => {
    const cwd = tempDir('svc-gitops-history-');
    mkdirSync(join(cwd, '.svc-gitops'));
    const file = join(cwd, '.svc-gitops', 'history.jsonl');
    writeFileSync(
      file,
      `${record(1, '2026-11-20T00:00:00.000Z')}\n{"time": "torn\n${record(2, '2026-11-27T00:00:00.000Z')}\n`,
    );
    const run = await cli(['history'], { cwd, env: { HOME: cwd } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${file}:2: not a history record (not JSON)`);
    expect(run.stdout).toMatch(/^ {2}1 site1\.example\.test /m);
    expect(run.stdout).toMatch(/^ {2}2 site2\.example\.test /m);
  });

  it('--since takes a duration back from now and an ISO time', async () => {
    const cwd = tempDir('svc-gitops-history-');
    const file = join(cwd, 'h.jsonl');
    writeFileSync(
      file,
      `${record(1, '2026-11-20T00:00:00.000Z')}\n${record(2, '2026-11-27T00:00:00.000Z')}\n`,
    );
    const now = () => new Date('2026-11-28T00:00:00.000Z');
    const sites = async (since: string) => {
      const run = await cli(['history', '--file', 'h.jsonl', '--since', since, '--format', 'json'], {
        cwd,
        env: { HOME: cwd },
        now,
      });
      expect(run.code, run.stderr).toBe(0);
      return (JSON.parse(run.stdout) as { records: Record_[] }).records.map((r) => r.site_id);
    };
    expect(await sites('7d')).toEqual([2]);
    expect(await sites('2w')).toEqual([1, 2]);
    expect(await sites('2026-11-21')).toEqual([2]);
    const bad = await cli(['history', '--file', 'h.jsonl', '--since', 'last week'], {
      cwd,
      env: { HOME: cwd },
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--since last week is neither an ISO time nor a duration');
  });
});
