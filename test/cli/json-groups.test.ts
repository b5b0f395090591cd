import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyPlanId } from '../../src/plan/index.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import type { Action, Plan } from '../../src/types.js';
import { cli } from '../helpers/cli.js';
import { expectFitsSchema } from '../helpers/json-schemas.js';
import { demoFleet, fastClientEnv } from '../helpers/sandbox.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/**
 * `--group-by item|site` with `--format json`: the plan gains `group_by` and `groups`, a
 * presentation of its actions that is not part of the id and is never acted on. Real runs
 * against the sandbox: the groups are the ones docs/plan-format.md describes, the id is the
 * same, a grouped file applies (saved and reviewed) as an ungrouped one, and a file whose groups
 * were edited is refused with nothing sent.
 */
const MINIMAL = join(import.meta.dirname, '..', '..', 'examples/minimal.yaml');
const NOW = new Date('2026-01-01T00:00:00Z');

interface Grouped extends Plan {
  group_by?: 'item' | 'site';
  groups?: Array<Record<string, unknown> & { action_indices: number[] }>;
}

const sandboxes: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
});

async function world() {
  const sandbox = await startSandbox({ fleet: demoFleet() });
  sandboxes.push(sandbox);
  const dir = tempDirForFile('svc-gitops-groups-');
  const env = { ...fastClientEnv(sandbox), SVC_ALLOW_HTTP: 'true', SVC_SAFE_MODE: 'false', HOME: dir };
  const run = (...argv: string[]) => cli(argv, { cwd: dir, env, now: () => NOW });
  const planJson = async (...extra: string[]): Promise<Grouped> => {
    const result = await run('plan', '-c', MINIMAL, '--format', 'json', ...extra);
    expect(result.code, result.stderr).toBe(0);
    return expectFitsSchema('plan', result.stdout) as unknown as Grouped;
  };
  return { dir, run, planJson };
}

/** What makes two actions the same change, written apart from src/render/rollup.ts. */
const changeOf = (a: Action) => JSON.stringify([a.op, a.kind, a.slug, a.from, a.to, a.risk, a.wave]);

function withoutGroups(plan: Grouped): Plan {
  const { group_by: _by, groups: _groups, ...rest } = plan;
  return rest;
}

describe('--format json --group-by', () => {
  it('item: one entry per distinct change with its site count and action indices; the id is unchanged', async () => {
    const { planJson } = await world();
    const plain = await planJson();
    const grouped = await planJson('--group-by', 'item');
    expect(plain.groups).toBeUndefined();
    expect(grouped.group_by).toBe('item');
    expect(grouped.id).toBe(plain.id);
    expect(withoutGroups(grouped)).toEqual(plain);
    expect(verifyPlanId(grouped)).toBe(true);

    const groups = grouped.groups ?? [];
    const distinct = new Set(plain.actions.map(changeOf));
    expect(groups.length).toBe(distinct.size);
    expect(groups.length).toBeLessThan(plain.actions.length);
    const seen: number[] = [];
    for (const group of groups) {
      const members = group.action_indices.map((i) => plain.actions[i] as Action);
      const first = members[0] as Action;
      expect(new Set(members.map(changeOf))).toEqual(new Set([changeOf(first)]));
      expect(group).toMatchObject({ op: first.op, kind: first.kind, slug: first.slug, risk: first.risk });
      expect(group.from).toBe(first.from);
      expect(group.to).toBe(first.to);
      expect(group.sites).toBe(new Set(members.map((a) => a.site_id)).size);
      expect(group.sites).toBe(group.action_indices.length);
      expect(group.action_indices).toEqual([...group.action_indices].sort((a, b) => a - b));
      seen.push(...group.action_indices);
    }
    // Every action in exactly one group; updates first, then by falling site count within a risk.
    expect(seen.sort((a, b) => a - b)).toEqual(plain.actions.map((_, i) => i));
    expect(groups.findIndex((g) => g.op !== 'update')).toBe(groups.filter((g) => g.op === 'update').length);
    expect(groups.some((g) => (g.sites as number) > 1)).toBe(true);
  });

  it('site: one entry per site, ascending, with its action indices', async () => {
    const { planJson } = await world();
    const plain = await planJson();
    const grouped = await planJson('--group-by', 'site');
    expect(grouped.id).toBe(plain.id);
    const expected = [...new Set(plain.actions.map((a) => a.site_id))].sort((a, b) => a - b);
    expect(grouped.groups?.map((g) => g.site_id)).toEqual(expected);
    for (const group of grouped.groups ?? []) {
      const indices = plain.actions.flatMap((a, i) => (a.site_id === group.site_id ? [i] : []));
      expect(group.action_indices).toEqual(indices);
      expect(group.site_url).toBe(plain.actions[indices[0] as number]?.site_url);
    }
  });

  it('--out saves the groups; show and drift group as plan does; show without the flag prints the plan alone', async () => {
    const { dir, run, planJson } = await world();
    const stdout = await planJson('--group-by', 'item', '--out', join(dir, 'grouped.json'));
    const saved = readFileSync(join(dir, 'grouped.json'), 'utf8');
    expect(JSON.parse(saved)).toEqual(stdout);
    // One entry per line, the long index list last, so a reviewer reads what changes first.
    expect(saved).toMatch(/\n {2}"group_by": "item",\n {2}"groups": \[\n {4}\{"op":"update","kind":/);

    const shown = await run('show', 'grouped.json', '--format', 'json', '--group-by', 'item');
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toBe(saved);
    const bySite = await run('show', 'grouped.json', '--format', 'json', '--group-by', 'site');
    expect(expectFitsSchema('plan', bySite.stdout)).toEqual(await planJson('--group-by', 'site'));
    const alone = await run('show', 'grouped.json', '--format', 'json');
    expect(JSON.parse(alone.stdout)).toEqual(await planJson());

    const drift = await run('drift', '-c', MINIMAL, '--format', 'json', '--group-by', 'item');
    expect(drift.code, drift.stderr).toBe(2);
    expect(expectFitsSchema('plan', drift.stdout)).toEqual(stdout);
    const text = await run('drift', '-c', MINIMAL, '--group-by', 'item');
    expect(text.stdout).toContain('By item:');
  });

  it('a plan saved with --group-by applies, saved and reviewed, exactly as one saved without', async () => {
    const outcomes = async (flow: 'saved' | 'reviewed', groupBy: string[]) => {
      const { dir, run } = await world();
      const planned = await run('plan', '-c', MINIMAL, '--out', 'p.json', ...groupBy);
      expect(planned.code, planned.stderr).toBe(0);
      const applied = await run(
        'apply',
        ...(flow === 'saved' ? ['p.json'] : ['-c', MINIMAL, '--reviewed', 'p.json']),
        '--format',
        'json',
      );
      const report = expectFitsSchema('apply-report', applied.stdout) as {
        approval: string;
        counts: Record<string, number>;
        outcomes: Array<Record<string, unknown>>;
        reviewed?: { not_needed: unknown[]; unreviewed: unknown[] };
      };
      const after = await run('plan', '-c', MINIMAL, '--format', 'json');
      const left = (JSON.parse(after.stdout) as Plan).actions;
      expect(readFileSync(join(dir, 'p.json'), 'utf8').includes('"groups"')).toBe(groupBy.length > 0);
      // Each world is its own sandbox: its address (and so the plan id) is its own.
      const {
        plan_id: _id,
        dashboard: _url,
        ...rest
      } = report as typeof report & {
        plan_id?: string;
        dashboard?: string;
      };
      return { code: applied.code, report: rest, left };
    };
    const plain = await outcomes('saved', []);
    expect(plain.report.counts.done).toBeGreaterThan(0);
    expect(plain.report.approval).toBe('saved-plan');
    expect(await outcomes('saved', ['--group-by', 'item'])).toEqual(plain);
    expect(await outcomes('saved', ['--group-by', 'site'])).toEqual(plain);

    const reviewed = await outcomes('reviewed', []);
    expect(reviewed.report.reviewed).toEqual({ not_needed: [], unreviewed: [] });
    expect(await outcomes('reviewed', ['--group-by', 'item'])).toEqual(reviewed);
  });

  it('an edited groups section is refused by apply, apply --reviewed and show, and nothing is sent', async () => {
    const { dir, run, planJson } = await world();
    const grouped = await planJson('--group-by', 'item');
    const groups = grouped.groups ?? [];
    const [first, second] = groups;
    if (!first || !second) throw new Error('the demo plan has at least two distinct changes');
    const edits: Record<string, (plan: Grouped) => void> = {
      'a group says another version': (p) => {
        (p.groups as Grouped['groups'] & object)[0] = { ...first, to: '99.0.0' };
      },
      'an action moved to another group': (p) => {
        const moved = first.action_indices[0] as number;
        (p.groups as NonNullable<Grouped['groups']>)[0] = {
          ...first,
          sites: (first.sites as number) - 1,
          action_indices: first.action_indices.slice(1),
        };
        (p.groups as NonNullable<Grouped['groups']>)[1] = {
          ...second,
          sites: (second.sites as number) + 1,
          action_indices: [...second.action_indices, moved].sort((a, b) => a - b),
        };
      },
      'a group of a change not planned': (p) => {
        p.groups?.push({ ...first, slug: 'evil/evil.php', action_indices: [0] });
      },
      'a group left out': (p) => {
        p.groups?.pop();
      },
      'group_by says site over item groups': (p) => {
        p.group_by = 'site';
      },
      'groups without group_by': (p) => {
        delete p.group_by;
      },
    };
    for (const [name, edit] of Object.entries(edits)) {
      const edited = structuredClone(grouped);
      edit(edited);
      writeFileSync(join(dir, 'edited.json'), JSON.stringify(edited, null, 2));
      for (const argv of [
        ['apply', 'edited.json'],
        ['apply', '-c', MINIMAL, '--reviewed', 'edited.json'],
        ['show', 'edited.json', '--format', 'json'],
      ]) {
        const refused = await run(...argv);
        expect(refused.code, `${name}: ${argv.join(' ')}`).toBe(1);
        if (argv.includes('json')) {
          // With --format json the refusal is the one document on stdout.
          expect((JSON.parse(refused.stdout) as { code: string }).code, name).toBe('PLAN_INVALID');
        } else {
          expect(refused.stderr, name).toContain('[PLAN_INVALID]');
          expect(refused.stdout, name).toBe('');
        }
      }
    }
    expect((await planJson()).actions).toEqual(grouped.actions);

    // Without both members the file is the plan alone, with the same id: it applies.
    writeFileSync(join(dir, 'dropped.json'), JSON.stringify(withoutGroups(grouped)));
    const applied = await run('apply', 'dropped.json');
    expect(applied.stderr).not.toContain('PLAN_INVALID');
    expect((await planJson()).actions.length).toBeLessThan(grouped.actions.length);
  });
});
