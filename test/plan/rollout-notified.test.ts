import { describe, expect, it } from 'vitest';
import { parseRolloutState, serialiseRolloutState } from '../../src/plan/index.js';
import { recordNotified, unnotifiedMoves } from '../../src/plan/rollout-notified.js';
import type { Plan } from '../../src/types.js';
import { svcErrorSync } from '../helpers/errors.js';

const NOW = new Date('2026-11-23T10:00:00Z');
const KEY = 'plugin cf7/cf7.php 5.0 ADV-1';

const plan = (sites: number[], advisories = ['ADV-1']): Pick<Plan, 'security'> => ({
  security: {
    feed: { source: 'test', fetched_at: NOW.toISOString() },
    advisories: {},
    updates: [],
    vulnerable: [
      {
        kind: 'plugin',
        slug: 'cf7/cf7.php',
        name: 'CF7',
        from: '5.0',
        to: '',
        advisories,
        site_ids: sites,
        fix: 'no-fix',
      },
      {
        kind: 'plugin',
        slug: 'x/x.php',
        name: 'X',
        from: '1',
        to: '2',
        advisories,
        site_ids: [9],
        fix: 'not-planned',
      },
    ],
  },
});

describe('the notified records of the rollout state', () => {
  it('a union merge of two records is every site of either, the earlier time; written sorted', () => {
    const text = [
      '{"format":2}',
      `{"notified":"${KEY}","at":"2026-11-22T00:00:00.000Z","sites":[5,6]}`,
      `{"notified":"${KEY}","at":"2026-11-21T00:00:00.000Z","sites":[7,5]}`,
      '',
    ].join('\n');
    const state = parseRolloutState(text, 'svc-gitops.rollout.json', NOW);
    expect(state.notified).toEqual({ [KEY]: { at: '2026-11-21T00:00:00.000Z', sites: [5, 6, 7] } });
    expect(serialiseRolloutState(state)).toBe(
      `{"format":2}\n{"notified":"${KEY}","at":"2026-11-21T00:00:00.000Z","sites":[5,6,7]}\n`,
    );
  });

  it('a record it does not understand is refused with file:line', () => {
    const bad = `{"format":2}\n{"notified":"${KEY}","at":"2026-11-21T00:00:00Z","sites":["five"]}\n`;
    expect(svcErrorSync(() => parseRolloutState(bad, 'f.json', NOW)).message).toContain('f.json:2');
  });

  it('only (site, advisory) pairs not remembered are new; recording keeps what the plan lists', () => {
    expect(unnotifiedMoves(plan([5, 6]), undefined).map((m) => m.site_ids)).toEqual([[5, 6]]);
    const state = recordNotified({ first_seen: {}, waves: {} }, plan([5, 6]), NOW);
    expect(state.notified).toEqual({ [KEY]: { at: NOW.toISOString(), sites: [5, 6] } });
    expect(unnotifiedMoves(plan([5, 6]), state)).toEqual([]);
    expect(unnotifiedMoves(plan([1, 5, 6]), state).map((m) => m.site_ids)).toEqual([[1]]);
    // A new advisory for the same sites is news for each of them.
    expect(unnotifiedMoves(plan([5, 6], ['ADV-1', 'ADV-2']), state).map((m) => m.advisories)).toEqual([
      ['ADV-2'],
    ]);
    // A key the plan no longer lists is dropped.
    expect(recordNotified(state, {}, NOW).notified).toBeUndefined();
  });
});
