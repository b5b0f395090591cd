import { describe, expect, it } from 'vitest';
import { mapConcurrent } from '../../src/dashboard/concurrent.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('mapConcurrent', () => {
  it('keeps the order of the items and never runs more than `workers` at once', async () => {
    let running = 0;
    let most = 0;
    const results = await mapConcurrent([5, 1, 4, 2, 3, 0], 3, async (n, index) => {
      running += 1;
      most = Math.max(most, running);
      for (let i = 0; i < n; i++) await tick();
      running -= 1;
      return `${index}:${n}`;
    });
    expect(results).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3', '5:0']);
    expect(most).toBe(3);
  });

  it('stops starting new calls after a failure and throws it once the calls in flight settled', async () => {
    const started: number[] = [];
    let settled = 0;
    const run = mapConcurrent([0, 1, 2, 3, 4, 5], 2, async (n) => {
      started.push(n);
      await tick();
      settled += 1;
      if (n === 1) throw new Error('site 1 failed');
      await tick();
      return n;
    });
    await expect(run).rejects.toThrow('site 1 failed');
    expect(started).toEqual([0, 1]);
    expect(settled).toBe(2);
  });
});
