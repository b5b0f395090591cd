import { describe, expect, it } from 'vitest';
import { checkNotExpired, checkSafeMode, checkSameDashboard } from '../../src/apply/guard.js';
import { cliWords } from '../../src/cli/hints.js';
import type { SvcError } from '../../src/errors.js';
import { planOf, update } from './builders.js';

describe('guard', () => {
  it('safe mode lists the high-risk actions and says how to allow them', () => {
    const actions = Array.from({ length: 12 }, (_, i) =>
      update(i + 1, 'core', 'wordpress', { from: '6.8', to: '7.0' }),
    );
    expect(() => checkSafeMode(actions, false)).not.toThrow();
    expect(() => checkSafeMode([update(1, 'plugin', 'a/a.php')], true)).not.toThrow();
    try {
      checkSafeMode(actions, true);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'SAFE_MODE_BLOCKED' });
      expect((error as Error).message).toContain(
        '12 high-risk action(s): https://site1.example.test/ core wordpress 6.8→7.0',
      );
      expect((error as Error).message).toContain('and 2 more');
      // The engine speaks no front end's words: a reason and data; the CLI words the way out.
      expect(error).toMatchObject({ details: { reason: 'safe-mode', high_risk: 12 } });
      expect((error as SvcError).hint).toBeUndefined();
      expect(cliWords(error as SvcError).hint).toContain('SVC_SAFE_MODE=false');
    }
  });

  it('expiry is strict after expires_at; the dashboard must match apart from a trailing slash', () => {
    const plan = planOf([]);
    expect(() => checkNotExpired(plan, new Date(plan.expires_at))).not.toThrow();
    expect(() => checkNotExpired(plan, new Date(Date.parse(plan.expires_at) + 1))).toThrow(/expired/);
    expect(() => checkSameDashboard(plan, 'https://dashboard.example.test/')).not.toThrow();
    expect(() => checkSameDashboard(plan, 'https://evil.example.test')).toThrow(/was made for/);
  });
});
