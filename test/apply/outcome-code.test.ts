import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ErrorCode } from '../../src/errors.js';
import {
  type ActionOutcome,
  type ActionOutcomeCode,
  type DashboardSiteCode,
  dashboardSiteCode,
  OUTCOME_CODES,
  type OutcomeCode,
} from '../../src/index.js';

describe('the codes an action outcome carries', () => {
  it('is a closed union of ours and SvcError codes, with the dashboard’s own codes branded', () => {
    expectTypeOf<NonNullable<ActionOutcome['code']>>().toEqualTypeOf<ActionOutcomeCode>();
    expectTypeOf<OutcomeCode>().toMatchTypeOf<ActionOutcomeCode>();
    expectTypeOf<ErrorCode>().toMatchTypeOf<ActionOutcomeCode>();
    expectTypeOf<string>().not.toMatchTypeOf<ActionOutcomeCode>();
    // @ts-expect-error: a bare string is neither one of ours nor marked as the dashboard's
    const unmarked: ActionOutcomeCode = 'svc_update_failed';
    expect(unmarked).toBe('svc_update_failed');
  });

  it('keeps the dashboard’s text as sent', () => {
    const code: DashboardSiteCode = dashboardSiteCode('svc_update_failed');
    expect(code).toBe('svc_update_failed');
    expect(OUTCOME_CODES).toContain('NOT_REPORTED');
  });
});
