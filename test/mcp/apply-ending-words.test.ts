import { describe, expect, it } from 'vitest';
import type { SessionPlan } from '../../src/index.js';
import { appliedOutcome } from '../../src/mcp/gitops/apply-result.js';
import type { ApplyReport } from '../../src/render/apply-report.js';
import { renderApplyReport } from '../../src/render/formats.js';
import { update } from '../apply/builders.js';

/** A run that stopped before its second wave: the window closed. */
function gateClosed(): ApplyReport {
  return {
    dashboard: 'https://dashboard.example.test',
    approval: 'reviewed',
    result: {
      plan_id: 'f'.repeat(64),
      started_at: '2026-01-01T00:00:00.000Z',
      finished_at: '2026-01-01T00:00:05.000Z',
      interrupted: false,
      calls: 1,
      outcomes: [
        { action: update(1, 'plugin', 'a/a.php'), status: 'done' },
        {
          action: update(2, 'plugin', 'a/a.php'),
          status: 'skipped',
          code: 'GATE_CLOSED',
          message: 'window shut',
        },
      ],
    },
    gateClosed: { message: 'the window of wave late is shut' },
    warnings: [],
  };
}

describe('the next step after a closed gate, in each front end’s words', () => {
  it('the CLI names `svc-gitops apply`; the tool server names its own tools and no CLI command', () => {
    const step =
      'Apply again once it opens: `svc-gitops apply` plans what is left, and nothing is sent while the gate is shut.';
    expect(renderApplyReport(gateClosed(), 'text')).toContain(step);
    expect(renderApplyReport(gateClosed(), 'markdown')).toContain(step);

    const planned = { plan: { id: 'f'.repeat(64), summary: {} } } as unknown as SessionPlan;
    const outcome = appliedOutcome(planned, gateClosed(), 'token', 'acme');
    expect(outcome.text).toContain('call acme_plan, then acme_apply with the new plan');
    // The report's heading still names the product; the step names no command of the CLI.
    expect(outcome.text).not.toContain('`svc-gitops apply`');
  });

  /** The same run stopped another way: interrupted, the dashboard gone, or a wave left unhealthy. */
  const withoutGate = ({ gateClosed: _, ...report }: ApplyReport): ApplyReport => report;
  const stoppedBy = {
    interrupted: (report: ApplyReport): ApplyReport => ({
      ...withoutGate(report),
      result: { ...report.result, interrupted: true },
    }),
    unreachable: (report: ApplyReport): ApplyReport => ({
      ...withoutGate(report),
      unreachable: { message: 'connection refused' },
    }),
    unhealthy: (report: ApplyReport): ApplyReport => ({
      ...withoutGate(report),
      result: {
        ...report.result,
        health: [
          {
            wave: 'canary',
            checked: 1,
            unhealthy: [{ site_id: 1, site_url: 'https://a.example.test/', problem: 'HTTP 500' }],
            max_unhealthy: 0,
            stopped: true,
          },
        ],
      },
    }),
  };

  it.each(Object.entries(stoppedBy))(
    'after a run stopped (%s), the CLI names `apply --resume`; the tool server, which has none, its tools',
    (_, stop) => {
      const report = stop(gateClosed());
      expect(renderApplyReport(report, 'text')).toContain('`svc-gitops apply --resume`');
      const planned = { plan: { id: 'f'.repeat(64), summary: {} } } as unknown as SessionPlan;
      const outcome = appliedOutcome(planned, report, 'token', 'acme');
      expect(outcome.text).toContain('call acme_plan, then acme_apply with the new plan');
      expect(outcome.text).not.toContain('--resume');
    },
  );
});
