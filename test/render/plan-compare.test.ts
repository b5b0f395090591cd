import { describe, expect, it } from 'vitest';
import { createPlan } from '../../src/plan/index.js';
import { changeMarkdown } from '../../src/render/change-markdown.js';
import { planCommentFrame } from '../../src/render/plan-comment.js';
import { comparePlans } from '../../src/render/plan-compare.js';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { markdownStructure } from '../helpers/markdown-structure.js';
import { desiredState, hold, liveState, PLAN_OPTIONS, policy, site, update } from '../plan/builders.js';

const HOSTILE = ['a | b | c', 'line\nbreak\r\n| forged | row |', '</details><details open>', '`code`'];

/** Six sites; plugin p on every site at 1.0.0 or 1.0.1 → 1.1.0 (minor), q 2.0.0 → 2.0.1, hostile items. */
const live = liveState({
  sites: [1, 2, 3, 4, 5, 6].map((id) => site(id)),
  pending: [
    ...[1, 2, 3, 4, 5, 6].map((id) => update(id, 'plugin', 'p/p.php', id % 2 ? '1.0.0' : '1.0.1', '1.1.0')),
    ...[1, 2, 3].map((id) => update(id, 'plugin', 'q/q.php', '2.0.0', '2.0.1')),
    ...HOSTILE.map((name, i) => update(4, 'plugin', `h${i}/${name}.php`, '1.0', '1.0.1', name)),
  ],
});
const plan = (desired: ReturnType<typeof desiredState>) => createPlan(desired, live, PLAN_OPTIONS);

describe('comparePlans (pure) and the comment head it leads', () => {
  const base = plan(desiredState({ policies: [policy({ name: 'patch', maxLevel: 'patch' })] }));
  const head = plan(
    desiredState({
      policies: [policy({ name: 'minor', maxLevel: 'minor' })],
      holds: [hold({ kind: 'plugin', slug: 'q/q.php' })],
    }),
  );

  it('one row per item and direction: versions as ranges, sites counted, reasons with file:line', () => {
    const comparison = comparePlans(base, head);
    expect(comparison.same).toBe(false);
    const rows = comparison.rows.map((row) => [
      row.direction,
      row.slug,
      row.from,
      row.to,
      row.siteIds.length,
    ]);
    // p: a minor move the head's policy allows enters on six sites (two from versions);
    // q: held by the head, so its patch updates leave.
    expect(rows).toEqual([
      ['enters', 'p/p.php', ['1.0.0', '1.0.1'], ['1.1.0'], 6],
      ['leaves', 'q/q.php', ['2.0.0'], ['2.0.1'], 3],
    ]);
    const lines = changeMarkdown({ comparison, ref: 'main', commit: 'a'.repeat(40) });
    expect(lines[0]).toContain('6 pending plugin p/p.php updates enter the plan (');
    expect(lines.join('\n')).toContain('| enters: ~ update | plugin p/p.php | 1.0.0–1.0.1 → 1.1.0 | 6 |');
    // The hostile items' updates are in both plans (patch moves): they did not change.
    expect(lines.join('\n')).not.toContain('h0/');
  });

  it('an action whose target moved is a change, its base target shown; reasons alone are no change', () => {
    const pinned = plan(
      desiredState({
        policies: [policy({ name: 'minor', maxLevel: 'minor' })],
        holds: [hold({ kind: 'plugin', slug: 'q/q.php' })],
      }),
    );
    const moved = {
      ...pinned,
      actions: pinned.actions.map((a) => (a.slug === 'p/p.php' ? { ...a, to: '1.2.0' } : a)),
    };
    const relabelled = { ...pinned, actions: pinned.actions.map((a) => ({ ...a, reason: `${a.reason}!` })) };
    expect(comparePlans(pinned, relabelled).same).toBe(true);
    const [row] = comparePlans(pinned, moved).rows;
    expect(row).toMatchObject({ direction: 'changes', slug: 'p/p.php', to: ['1.2.0'], baseTo: ['1.1.0'] });
    expect(
      changeMarkdown({ comparison: comparePlans(pinned, moved), ref: 'main', commit: 'b'.repeat(40) }).join(
        '\n',
      ),
    ).toContain('1.0.0–1.0.1 → 1.2.0 (was → 1.1.0)');
  });

  it('renders as GitHub reads it: refusals, the one title, the change, then the backlog, no broken row', () => {
    // Hostile names in the change: the base has no policy, so every head update enters.
    const comparison = comparePlans(plan(desiredState()), head);
    const input = {
      marker: '<!-- svc-gitops:plan svc-gitops.yaml -->',
      configKey: 'svc-gitops.yaml',
      plan: head,
      refusals: [{ code: 'SAFE_MODE_BLOCKED', message: 'safe mode is on' }],
      change: { comparison, ref: 'main', commit: 'c'.repeat(40) },
      artifact: { name: 'svc-gitops-plan' },
      now: new Date(PLAN_OPTIONS.now),
    };
    const frame = planCommentFrame(input);
    const body =
      frame.head +
      renderPlanMarkdown(head, { heading: '### The whole plan after the merge (backlog)' }) +
      frame.tail;
    const lines = body.split('\n');
    const title = lines.findIndex((line) => line.startsWith('**svc-gitops** plan for config'));
    expect(lines.slice(0, title).join('\n')).toContain('SAFE_MODE_BLOCKED');
    expect(lines[title + 2]).toMatch(/^\*\*This change\*\* against `main`/);
    expect(body.match(/svc-gitops\*\* plan for config/g)).toHaveLength(1);
    const structure = markdownStructure(body);
    expect(structure.problems).toEqual([]);
    expect(structure.sections.filter((section) => section.tables > 1)).toEqual([]);
    expect(structure.sections[0]!.tables).toBe(1);
  });
});
