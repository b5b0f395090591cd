import { describe, expect, it } from 'vitest';
import { CallRate, SessionBudget } from '../../src/mcp/limits.js';
import { ConfirmationTokens, TOKEN_LIFETIME_MS } from '../../src/mcp/tokens.js';

function tokens() {
  let now = 1_000_000;
  let counter = 0;
  const store = new ConfirmationTokens(
    () => now,
    () => `t${++counter}`,
  );
  return { store, advance: (ms: number) => (now += ms) };
}

describe('confirmation tokens', () => {
  it('redeem once, for the same tool and binding, carrying what the preview handed over', () => {
    const { store } = tokens();
    const { token } = store.issue('update_all_v1', 'args-a', 'dashboard-preview-1');
    expect(store.redeem(token, 'update_all_v1', 'args-a')).toEqual({
      ok: true,
      carried: 'dashboard-preview-1',
    });
    expect(store.redeem(token, 'update_all_v1', 'args-a')).toMatchObject({
      ok: false,
      code: 'PREVIEW_REQUIRED',
    });
  });

  it('is valid for exactly 5 minutes: expired strictly after, and deleted then', () => {
    const { store, advance } = tokens();
    const first = store.issue('x', 'b');
    advance(TOKEN_LIFETIME_MS);
    expect(store.redeem(first.token, 'x', 'b').ok).toBe(true);
    const second = store.issue('x', 'b');
    advance(TOKEN_LIFETIME_MS + 1);
    expect(store.redeem(second.token, 'x', 'b')).toMatchObject({ ok: false, code: 'PREVIEW_EXPIRED' });
    expect(store.redeem(second.token, 'x', 'b')).toMatchObject({ ok: false, code: 'PREVIEW_REQUIRED' });
  });

  it('a token shown for other arguments or another tool is refused and kept for the right ones', () => {
    const { store } = tokens();
    const a = store.issue('x', 'args-a');
    expect(store.redeem(a.token, 'x', 'args-b')).toMatchObject({
      ok: false,
      code: 'PREVIEW_REQUIRED',
      reason: expect.stringMatching(/other arguments/),
    });
    expect(store.redeem(a.token, 'y', 'args-a')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/issued for x/),
    });
    expect(store.redeem(a.token, 'x', 'args-a').ok).toBe(true);
    expect(store.redeem(a.token, 'x', 'args-a')).toMatchObject({ ok: false, code: 'PREVIEW_REQUIRED' });
  });

  it('previewing the same call again replaces its token; at most 100 wait at once, oldest dropped', () => {
    const { store } = tokens();
    const old = store.issue('x', 'same');
    const fresh = store.issue('x', 'same');
    expect(store.redeem(old.token, 'x', 'same').ok).toBe(false);
    expect(store.redeem(fresh.token, 'x', 'same').ok).toBe(true);
    const issued = Array.from({ length: 101 }, (_, i) => store.issue('x', `b${i}`).token);
    expect(store.size).toBe(100);
    expect(store.redeem(issued[0] as string, 'x', 'b0').ok).toBe(false);
    expect(store.redeem(issued[100] as string, 'x', 'b100').ok).toBe(true);
  });

  it('peek looks without using the token up', () => {
    const { store, advance } = tokens();
    const { token } = store.issue('svc_apply', '', 'plan-1');
    expect(store.peek(token, 'svc_apply')).toBe('plan-1');
    expect(store.peek(token, 'other')).toBeUndefined();
    expect(store.redeem(token, 'svc_apply', '').ok).toBe(true);
    expect(store.peek(token, 'svc_apply')).toBeUndefined();
    const later = store.issue('svc_apply', '', 'plan-2');
    advance(TOKEN_LIFETIME_MS + 1);
    expect(store.peek(later.token, 'svc_apply')).toBeUndefined();
  });
});

describe('tool server limits', () => {
  it('admits rateLimit calls per sliding minute; 0 is no limit', () => {
    let now = 0;
    const rate = new CallRate(2, () => now);
    expect([rate.admit(), rate.admit(), rate.admit()]).toEqual([true, true, false]);
    now = 59_999;
    expect(rate.admit()).toBe(false);
    now = 60_000;
    expect(rate.admit()).toBe(true);
    const off = new CallRate(0, () => now);
    expect(Array.from({ length: 1000 }, () => off.admit()).every(Boolean)).toBe(true);
  });

  it('the session budget refuses the result that would cross it, and every one after', () => {
    const budget = new SessionBudget(100);
    expect(budget.take(60)).toBe(true);
    expect(budget.take(40)).toBe(true);
    expect(budget.take(1)).toBe(false);
    expect(budget.isExhausted).toBe(true);
    expect(budget.take(0)).toBe(false);
    expect(budget.usedBytes).toBe(100);
  });
});
