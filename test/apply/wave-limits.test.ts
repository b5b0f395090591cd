import { describe, expect, it } from 'vitest';
import { waveLimits } from '../../src/apply/wave-limits.js';
import { REMAINING_WAVE } from '../../src/plan/index.js';

describe('wave failure thresholds', () => {
  it('a named wave uses its maxFailures; the last wave and plans without waves have none', () => {
    const limitOf = waveLimits({
      waves: [{ name: 'canary', maxFailures: 2, selection: { include: [{ type: 'all' }], exclude: [] } }],
    });
    expect(limitOf('canary')).toBe(2);
    expect(limitOf(REMAINING_WAVE)).toBe(Number.POSITIVE_INFINITY);
    expect(limitOf(undefined)).toBe(Number.POSITIVE_INFINITY);
  });

  it('a named wave whose threshold is unknown (a saved plan applied without its config) stops at its first failure', () => {
    expect(waveLimits(undefined)('canary')).toBe(0);
    expect(waveLimits({ waves: [] })('canary')).toBe(0);
  });
});
