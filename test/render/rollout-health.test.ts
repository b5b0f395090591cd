import { describe, expect, it } from 'vitest';
import { DEFAULT_HEALTH, siteProblem } from '../../src/plan/health.js';
import { renderApplyMarkdown } from '../../src/render/apply-markdown.js';
import type { ApplyReport } from '../../src/render/apply-report.js';
import { renderApplyText } from '../../src/render/apply-text.js';
import type { Action } from '../../src/types.js';

const up = { online: true, httpCode: 200, responseTime: 0.3 };

describe('what counts as healthy', () => {
  it('needs an answer, online, with an accepted status', () => {
    expect(siteProblem(up, DEFAULT_HEALTH)).toBeUndefined();
    expect(siteProblem({ ...up, httpCode: 301 }, DEFAULT_HEALTH)).toBeUndefined();
    expect(siteProblem({ ...up, httpCode: 503 }, DEFAULT_HEALTH)).toBe('HTTP 503');
    expect(siteProblem({ ...up, online: false, httpCode: 0 }, DEFAULT_HEALTH)).toBe('offline');
    expect(siteProblem({ ...up, error: 'NOT_FOUND: gone' }, DEFAULT_HEALTH)).toBe(
      'check failed: NOT_FOUND: gone',
    );
    const strict = { ...DEFAULT_HEALTH, status: ['200'] };
    expect(siteProblem({ ...up, httpCode: 301 }, strict)).toBe('HTTP 301');
  });

  it('compares the response time with the reading before the wave, never below 100 ms', () => {
    const rules = { ...DEFAULT_HEALTH, responseTimeFactor: 3 };
    expect(siteProblem({ ...up, responseTime: 0.8 }, rules, up)).toBeUndefined();
    expect(siteProblem({ ...up, responseTime: 1.2 }, rules, up)).toBe(
      'response time 1.20 s (0.30 s before; at most 3x)',
    );
    // A 10 ms site that answers in 250 ms is within 3 x 100 ms.
    expect(siteProblem({ ...up, responseTime: 0.25 }, rules, { ...up, responseTime: 0.01 })).toBeUndefined();
    // Without a reading from before (or without a factor), times are not compared.
    expect(siteProblem({ ...up, responseTime: 9 }, rules)).toBeUndefined();
    expect(siteProblem({ ...up, responseTime: 9 }, DEFAULT_HEALTH, up)).toBeUndefined();
  });
});

describe('health in the apply report', () => {
  const action: Action = {
    op: 'update',
    site_id: 2,
    site_url: 'https://two.test/',
    kind: 'plugin',
    slug: 'a/a.php',
    name: 'A',
    from: '1.0',
    to: '1.1',
    risk: 'medium',
    reason: 'r',
    wave: 'canary',
  };
  const report: ApplyReport = {
    result: {
      plan_id: 'p'.repeat(64),
      started_at: '2026-01-01T00:00:00.000Z',
      finished_at: '2026-01-01T00:01:00.000Z',
      outcomes: [
        { action, status: 'done' },
        {
          action: { ...action, site_id: 3, wave: 'rest' },
          status: 'skipped',
          code: 'UNHEALTHY',
          message: 'not started',
        },
      ],
      interrupted: false,
      calls: 1,
      health: [
        {
          wave: 'canary',
          checked: 1,
          max_unhealthy: 0,
          stopped: true,
          unhealthy: [
            {
              site_id: 2,
              site_url: 'https://two.test/',
              problem: 'HTTP 500 <b>',
              after: ['plugin a/a.php 1.0 → 1.1'],
            },
          ],
        },
      ],
    },
    dashboard: 'https://dash.test/',
    approval: 'auto-approve',
    warnings: [],
  };

  it('text: the verdict, the site, its problem and the update before it, and the next step', () => {
    const text = renderApplyText(report);
    expect(text.split('\n')[0]).toMatch(
      /^Apply stopped \(wave canary left unhealthy sites\): 1 done, 0 failed, 1 skipped/,
    );
    expect(text).toContain(
      'wave canary: 1 updated site(s) checked, 1 unhealthy (more than 0 allowed: later waves were not started)',
    );
    expect(text).toContain('- site 2 https://two.test/: HTTP 500 <b> after plugin a/a.php 1.0 → 1.1');
    expect(text.trimEnd().split('\n').at(-1)).toContain('svc-gitops apply --resume');
  });

  it('markdown (step summary): the same facts, escaped', () => {
    const markdown = renderApplyMarkdown(report);
    expect(markdown).toContain('### ❌ svc-gitops apply (stopped: wave canary left unhealthy sites)');
    expect(markdown).toContain('**Health checks**');
    // The address a code span: it copies byte for byte.
    expect(markdown).toContain(
      'site 2 `https://two.test/`: HTTP 500 &lt;b&gt; after plugin a/a.php 1.0 → 1.1',
    );
    expect(markdown).not.toContain('<b>');
  });
});
