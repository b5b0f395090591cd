import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GainHeap } from '../../src/apply/gain-heap.js';

describe('GainHeap: the lazy greedy queue', () => {
  it('pops by gain, highest first, ties in the order first pushed', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -3, max: 5 }), { maxLength: 60 }), (gains) => {
        const heap = new GainHeap<{ gain: number; id: number; seq?: number }>();
        for (const [id, gain] of gains.entries()) heap.push({ gain, id });
        const out: number[] = [];
        for (let item = heap.pop(); item; item = heap.pop()) out.push(item.id);
        const expected = gains
          .map((gain, id) => ({ gain, id }))
          .sort((a, b) => b.gain - a.gain || a.id - b.id)
          .map((item) => item.id);
        expect(out).toEqual(expected);
        expect(heap.size).toBe(0);
      }),
    );
  });

  it('an item pushed back after its gain fell keeps its first place among equals', () => {
    const heap = new GainHeap<{ gain: number; name: string; seq?: number }>();
    const a = { gain: 5, name: 'a' };
    heap.push(a);
    heap.push({ gain: 3, name: 'b' });
    heap.push({ gain: 3, name: 'c' });
    expect(heap.pop()).toBe(a);
    a.gain = 3;
    heap.push(a);
    expect([heap.pop()?.name, heap.pop()?.name, heap.pop()?.name]).toEqual(['a', 'b', 'c']);
  });
});
