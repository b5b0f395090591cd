import { describe, expect, it } from 'vitest';
import { failureLimit, unhealthyLimit, waveHealthRules, waveLimits } from '../../src/apply/wave-limits.js';
import { REMAINING_WAVE } from '../../src/plan/index.js';

describe('wave failure thresholds', () => {
  it('a named wave uses its maxFailures; the last wave and plans without waves have none', () => {
    const limits = waveLimits({
      waves: [{ name: 'canary', maxFailures: 2, selection: { include: [{ type: 'all' }], exclude: [] } }],
    });
    expect(limits).toEqual({ canary: 2 });
    expect(failureLimit(limits, 'canary')).toBe(2);
    expect(failureLimit(limits, REMAINING_WAVE)).toBe(Number.POSITIVE_INFINITY);
    expect(failureLimit(limits, undefined)).toBe(Number.POSITIVE_INFINITY);
  });

  it('a named wave whose threshold is unknown (a saved plan applied without its config) stops at its first failure', () => {
    expect(failureLimit(waveLimits(undefined), 'canary')).toBe(0);
    expect(failureLimit(waveLimits({ waves: [] }), 'canary')).toBe(0);
    // A wave named like an Object.prototype member is no limit of its own.
    expect(failureLimit(waveLimits(undefined), 'constructor')).toBe(0);
  });

  it('health limits are data: a wave’s own max_unhealthy, else the shared one', () => {
    const all = { include: [{ type: 'all' as const }], exclude: [] };
    const health = waveHealthRules({
      health: { status: ['2xx'], maxUnhealthy: 1 },
      waves: [
        { name: 'canary', maxFailures: 0, maxUnhealthy: 0, selection: all },
        { name: 'early', maxFailures: 0, selection: all },
      ],
    })!;
    expect(structuredClone(health)).toEqual(health);
    expect(health.maxUnhealthy).toEqual({ canary: 0 });
    expect(unhealthyLimit(health, 'canary')).toBe(0);
    expect(unhealthyLimit(health, 'early')).toBe(1);
    expect(unhealthyLimit(health, undefined)).toBe(1);
  });
});
