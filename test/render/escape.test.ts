import { describe, expect, it } from 'vitest';
import { createPlan } from '../../src/plan/index.js';
import { escapeMarkdown, fenceFor } from '../../src/render/markdown-escape.js';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { renderPlanText } from '../../src/render/plan-text.js';
import { safeText } from '../../src/render/safe-text.js';
import { desiredState, ignored, liveState, PLAN_OPTIONS, policy, site, update } from '../plan/builders.js';

const HOSTILE = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '</details><details open>',
  '[click me](https://evil.test/phish)',
  '![img](https://evil.test/x.png)',
  '<https://evil.test>',
  'https://evil.test/path',
  'www.evil.test',
  'mail admin@evil.test',
  '@octocat and @org/team',
  'fixes #123 and GH-1 and gh-2',
  'commit a5c3785ed8d6a35868bc169f07e40e889087fd2e and 1234567',
  '**bold** _em_ ~~strike~~ `code` ``x``',
  'a | b | c',
  '$\\sqrt{x}$',
  '&lt;b&gt; &amp; &#60;',
  'line\nbreak\r\n| forged | row |',
  'ansi \u001b[31mred\u001b[0m and \u202eright-to-left',
];

describe('escapeMarkdown', () => {
  it.each(HOSTILE)('neutralises %j', (name) => {
    const out = escapeMarkdown(name);
    expect(out).not.toMatch(/[<>`*_|~[\]\\$\n\r\u001b\u202e]/);
    expect(out).not.toMatch(/&(?!(amp|lt|gt|#\d+);)/);
    expect(out).not.toMatch(/@[a-z]/i);
    expect(out).not.toMatch(/(?<!&)#\d/);
    expect(out).not.toMatch(/https?:\/\//);
    expect(out).not.toMatch(/www\./i);
    expect(out).not.toMatch(/\bgh-\d/i);
    expect(out).not.toMatch(/[0-9a-f]{7}/i);
  });

  it('keeps ordinary names readable', () => {
    expect(escapeMarkdown('Akismet Anti-spam (5.3)')).toBe('Akismet Anti-spam (5.3)');
    expect(escapeMarkdown('akismet/akismet.php')).toBe('akismet/akismet.php');
  });

  it('neutralises every bidi control and the invisible characters that can hide or reorder text', () => {
    // U+061C is a bidi control like U+200E/F; zero-width spaces, word joiners, invisible
    // operators, deprecated format controls, annotation marks and tag characters show nothing.
    const hidden = [
      '\u061c',
      '\u180e',
      '\u200b',
      '\u2060',
      '\u2063',
      '\u206a',
      '\u206f',
      '\ufff9',
      '\u{e0041}',
    ];
    for (const c of hidden) {
      expect(safeText(`akis${c}met/akismet.php`)).toBe('akis\ufffdmet/akismet.php');
      expect(escapeMarkdown(`akis${c}met`)).toBe('akis\ufffdmet');
    }
    // Joiners that scripts and emoji need stay.
    expect(safeText('\u0645\u200c\u0647 \ud83d\udc69\u200d\ud83d\udcbb')).toBe(
      '\u0645\u200c\u0647 \ud83d\udc69\u200d\ud83d\udcbb',
    );
  });

  it('bounds the length of a field', () => {
    expect([...safeText('x'.repeat(10_000))]).toHaveLength(300);
  });
});

describe('fenceFor', () => {
  it('is longer than any backtick run in the content', () => {
    expect(fenceFor('plain')).toBe('```');
    expect(fenceFor(' ```` inside')).toBe('`````');
  });
});

describe('hostile names through the renderers', () => {
  // Notes name offline and unreadable sites by address: hostile ones too (the last, nastiest
  // names first, as a note shows its first ten sites).
  const reversed = [...HOSTILE].reverse();
  const offline = reversed.map((name, i) =>
    site(100 + i, { url: `https://off${i}.test/${name}/`, status: 'disconnected' }),
  );
  const unreadable = reversed.map((name, i) => ({
    siteId: 200 + i,
    url: `https://gone${i}.test/${name}/`,
    code: 'svc_site_offline',
    message: 'offline',
  }));
  const live = liveState({
    sites: [...HOSTILE.map((name, i) => site(i + 1, { url: `https://s${i}.test/${name}/` })), ...offline],
    pending: HOSTILE.map((name, i) => update(i + 1, 'plugin', `p${i}/${name}.php`, '1.0', '1.0.1', name)),
    ignores: HOSTILE.map((name, i) => ignored(i + 1, 'theme', `${name}\n\`\`\``)),
    unreadable,
  });
  const plan = createPlan(
    desiredState({ ignoreScope: 'remove', policies: [policy({ name: 'p' })] }),
    live,
    PLAN_OPTIONS,
  );
  const markdown = renderPlanMarkdown(plan, { live });

  it('cannot inject markup, mentions, links or table cells into the markdown', () => {
    // Fenced diffs and code spans (addresses) are literal text: markup inside them is inert, and
    // no backtick of a name can end them early (names escape it, addresses percent-encode it).
    const outsideFences = markdown.replace(/^(`{3,})diff\n[\s\S]*?^\1$/gm, '').replace(/`[^`\n]*`/g, '');
    expect(outsideFences).not.toMatch(/<(script|img|https)/i);
    expect(outsideFences).not.toMatch(/\]\(/);
    expect(outsideFences).not.toMatch(/@[a-z]/i);
    expect(outsideFences).not.toMatch(/(?<!&)#\d/);
    expect(outsideFences.match(/<details/g)?.length).toBe(outsideFences.match(/<\/details>/g)?.length);
    // Rows by item have 8 columns, per-site rows 5: no name adds a cell.
    for (const row of outsideFences.split('\n').filter((line) => line.startsWith('| '))) {
      expect([6, 9]).toContain(row.match(/\|/g)?.length);
    }
  });

  it('escapes a saved plan file’s own strings too (show renders any file whose id matches)', () => {
    const hostile = '2099-01-01T00:00:00.000Z <img src=x onerror=alert(1)> @octocat [x](https://evil.test)';
    const edited = { ...plan, created_at: hostile, expires_at: hostile };
    const head = renderPlanMarkdown(edited)
      .split('\n')
      .find((line) => line.startsWith('Plan '))!;
    expect(head).toContain('for `https://dashboard.example.test/`'); // copyable: a code span, no autolink
    expect(head.replace(/`[^`]*`/g, '')).not.toMatch(/<img|@[a-z]|\]\(|https?:\/\//i);
    expect(head).toContain('created 2099-01-01T00:00:00.000Z &lt;img');
  });

  it('keeps the diff inside one unbreakable fence', () => {
    const fence = /^(`{3,})diff$/m.exec(markdown)?.[1];
    expect(fence).toBeDefined();
    expect(fence!.length).toBeGreaterThan(3);
    expect(markdown.split('\n').filter((line) => line === fence)).toHaveLength(1);
  });

  it('cannot inject escapes or forged lines into the terminal output', () => {
    const text = renderPlanText(plan);
    expect(text).not.toMatch(/[\u001b\u202e\r]/);
    // One line per distinct change, then one per action: names forge no line in either.
    const [rollup, detail] = text.split('\nBy site:\n') as [string, string];
    const distinct = new Set(
      plan.actions.map((a) => [a.op, a.kind, a.slug, a.from, a.to, a.risk, a.wave].join('|')),
    );
    expect(rollup.split('\n').filter((line) => /^ {2}[+~-] /.test(line))).toHaveLength(distinct.size);
    const actionLines = detail.split('\n').filter((line) => /^ {2}[+~-] /.test(line));
    expect(actionLines).toHaveLength(plan.actions.length);
    const noteLines = text.split('\n').filter((line) => line.startsWith('  ! '));
    expect(noteLines).toHaveLength(plan.notes.length);
    // An address cannot pose as more sites of the list.
    const spoofed = createPlan(
      desiredState(),
      liveState({
        unreadable: [{ siteId: 5, url: 'https://a.test/), 1 (https://b.test/', code: 'E', message: 'm' }],
      }),
      PLAN_OPTIONS,
    );
    expect(renderPlanText(spoofed)).toContain('[site 5 (https://a.test/%29%2C%201%20%28https://b.test/)]');
    // Nor with look-alike delimiters, whitespace that a later step would make a space, or `]`.
    const lookalike = 'https://a.test/\u2769\ua4f9\t7\t\u2768]\u00a0https://b.test/';
    const disguised = createPlan(
      desiredState(),
      liveState({ unreadable: [{ siteId: 5, url: lookalike, code: 'E', message: 'm' }] }),
      PLAN_OPTIONS,
    );
    for (const view of [renderPlanText(disguised), renderPlanMarkdown(disguised)]) {
      const listed = /site 5 \(`?(.*?)`?\)/.exec(view)?.[1] ?? '';
      expect(listed).toMatch(
        /^https:\/\/a\.test\/%E2%9D%A9%EA%93%B9%097%09%E2%9D%A8%5D%C2%A0https:\/\/b\.test\/$/,
      );
    }
    expect(renderPlanMarkdown(spoofed)).toContain(
      '— site 5 (`https://a.test/%29%2C%201%20%28https://b.test/`)',
    );
    expect(plan.notes.filter((note) => note.site_urls).map((note) => note.kind)).toEqual([
      'unreadable-site',
      'offline-site',
    ]);
  });
});
