import { describe, expect, it } from 'vitest';
import { renderApplyJson } from '../../src/render/apply-json.js';
import { renderApplyMarkdown } from '../../src/render/apply-markdown.js';
import type { ApplyReport } from '../../src/render/apply-report.js';
import { renderApplyText } from '../../src/render/apply-text.js';
import { dashboardSiteCode } from '../../src/types.js';
import { ignore, update } from './builders.js';

function report(): ApplyReport {
  const hostile = update(2, 'plugin', 'evil/evil.php', { site_url: 'https://x.test/\u001b[2J|<b>' });
  return {
    dashboard: 'https://dashboard.example.test',
    approval: 'reviewed',
    result: {
      plan_id: 'f'.repeat(64),
      started_at: '2026-01-01T00:00:00.000Z',
      finished_at: '2026-01-01T00:00:05.000Z',
      interrupted: false,
      calls: 2,
      outcomes: [
        { action: ignore(1, 'plugin', 'a/a.php'), status: 'done' },
        {
          action: hostile,
          status: 'failed',
          code: dashboardSiteCode('svc_update_failed'),
          message: 'No response\nfrom the child',
        },
        { action: update(3, 'theme', 't'), status: 'blocked', code: 'UNREVIEWED', message: 'not reviewed' },
      ],
    },
    reviewed: { notNeeded: [update(4, 'plugin', 'gone/gone.php')], unreviewed: [update(3, 'theme', 't')] },
    warnings: [],
  };
}

describe('apply reports', () => {
  it('text: a summary line first, failures with their code, no terminal escapes from the dashboard', () => {
    const text = renderApplyText(report());
    expect(text.split('\n')[0]).toBe(
      'Apply finished with failures: 1 done, 1 failed, 0 skipped, 1 blocked (2 calls to https://dashboard.example.test; plan ffffffffffff, approved by reviewed)',
    );
    expect(text).toContain('failed (svc_update_failed): 1');
    expect(text).toContain('Reviewed actions no longer needed: 1');
    expect(text).not.toContain('\u001b');
    expect(text).toContain('No response from the child');
  });

  it('markdown: counts table and escaped table cells', () => {
    const md = renderApplyMarkdown(report());
    expect(md).toContain('| 1 | 1 | 0 | 1 |');
    // A site address is a code span: `|` and `<>` percent-encoded, as a URL may write them.
    expect(md).toContain('%7C%3Cb%3E`');
    expect(md).not.toContain('<b>');
    expect(md).toContain('**New, not reviewed (not applied):** 1');
  });

  it('markdown: the dashboard and site addresses are byte for byte the real ones', () => {
    const local = { ...report(), dashboard: 'http://127.0.0.1:39151' };
    const md = renderApplyMarkdown(local);
    expect(md).toContain('against `http://127.0.0.1:39151`,');
    expect(md).toMatch(/\| UNREVIEWED \| update theme t \S+ → \S+ on `https:\/\/site3\.example\.test\/` \|/);
    expect(md).toContain('- update plugin gone/gone.php 1.0.0 → 1.0.1 on `https://site4.example.test/`');
    expect(md).not.toContain('\u200b');
  });

  it('writes a hostile error code (a child site can set its own) as plain, safe text', () => {
    const hostile = report();
    const code = dashboardSiteCode(
      'e`| <a href="https://evil.test/">approve</a> \u001b]0;pwned\u0007\u001b[31m',
    );
    hostile.result.outcomes[1] = { ...hostile.result.outcomes[1]!, code };
    const text = renderApplyText(hostile);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    const md = renderApplyMarkdown(hostile);
    expect(md).not.toContain('<a ');
    expect(md).not.toContain('https://evil.test');
    const row = md.split('\n').find((line) => line.includes('evil/evil.php'))!;
    // The code stays inside its cell: three cells, four unescaped pipes.
    expect(row.match(/\|/g)).toHaveLength(4);
  });

  it('reports done actions the re-read could not confirm as unconfirmed, never as complete', () => {
    const unconfirmed = report();
    unconfirmed.result.outcomes = [
      { action: ignore(1, 'plugin', 'a/a.php'), status: 'done', unverified: true, message: 'not verified' },
    ];
    expect(renderApplyText(unconfirmed).split('\n')[0]).toMatch(
      /^Apply finished unconfirmed: 1 done \(1 not verified\), 0 failed/,
    );
    expect(renderApplyMarkdown(unconfirmed)).toContain('| 1 (1 not verified) | 0 | 0 | 0 |');
  });

  it('a run stopped because the dashboard could not be reached: says so first and ends with the next step', () => {
    const stopped = report();
    delete stopped.reviewed;
    const why = 'the dashboard could not be reached (POST /x: connection failed (ECONNREFUSED))';
    stopped.unreachable = { message: why };
    stopped.verificationSkipped = {
      code: 'DASHBOARD_UNREACHABLE',
      message: 'the dashboard could not be reached',
    };
    stopped.result.outcomes = [
      { action: ignore(1, 'plugin', 'a/a.php'), status: 'done', unverified: true, message: 'not verified' },
      { action: ignore(2, 'plugin', 'a/a.php'), status: 'failed', code: 'CONNECTION_FAILED', message: why },
      ...[3, 4].map((site) => ({
        action: ignore(site, 'plugin', 'a/a.php'),
        status: 'skipped' as const,
        code: 'DASHBOARD_UNREACHABLE' as const,
        message: `not started: ${why}`,
      })),
    ];
    const lines = renderApplyText(stopped).trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^Apply stopped \(the dashboard could not be reached\): 1 done \(1 not verified\), 1 failed, 2 skipped/,
    );
    expect(lines).toContain('skipped (DASHBOARD_UNREACHABLE): 2');
    expect(lines.at(-1)).toBe(
      'Once the dashboard answers again, run `svc-gitops apply --resume` to finish the remaining actions (2 not started).',
    );
    const md = renderApplyMarkdown(stopped).trimEnd().split('\n');
    expect(md[0]).toBe('### ❌ svc-gitops apply (stopped: the dashboard could not be reached)');
    expect(md.at(-1)).toBe(
      'Once the dashboard answers again, run `svc-gitops apply --resume` to finish the remaining actions (2 not started).',
    );
    const json = JSON.parse(renderApplyJson(stopped));
    expect(json.stopped).toEqual({ code: 'DASHBOARD_UNREACHABLE', message: why });
    expect(json.verification_skipped.code).toBe('DASHBOARD_UNREACHABLE');
  });

  it('an interrupted run without its re-read: outcomes unconfirmed, the next step last', () => {
    const interrupted = report();
    delete interrupted.reviewed;
    interrupted.result.interrupted = true;
    interrupted.verificationSkipped = { code: 'INTERRUPTED', message: 'the apply was interrupted' };
    interrupted.result.outcomes = [
      { action: ignore(1, 'plugin', 'a/a.php'), status: 'done', unverified: true, message: 'not verified' },
    ];
    const text = renderApplyText(interrupted);
    expect(text).toContain(
      'Not confirmed: the apply was interrupted before the re-read that confirms its changes; outcomes are as the dashboard reported them, unverified (the next run checks them).',
    );
    expect(text.trimEnd().split('\n').at(-1)).toBe(
      'Run `svc-gitops apply --resume` to finish the remaining actions.',
    );
    expect(renderApplyMarkdown(interrupted).trimEnd().split('\n').at(-1)).toBe(
      'Run `svc-gitops apply --resume` to finish the remaining actions.',
    );
  });

  it('json: the ApplyResult with counts and the reviewed lists', () => {
    const json = JSON.parse(renderApplyJson(report()));
    expect(json.counts).toEqual({ done: 1, failed: 1, skipped: 0, blocked: 1 });
    expect(json.outcomes).toHaveLength(3);
    expect(json.reviewed.not_needed[0].slug).toBe('gone/gone.php');
  });
});
