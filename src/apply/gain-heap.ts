/**
 * A binary max-heap of items by `gain`, ties to the item pushed first (its `seq`): the lazy
 * greedy's queue. Pushing an item that is already in the heap is not allowed; pop it first.
 */
export interface HeapItem {
  gain: number;
  /** Set by the heap on first push: the order of first pushes breaks ties. */
  seq?: number;
}

export class GainHeap<T extends HeapItem> {
  private readonly items: T[] = [];
  private pushed = 0;

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    item.seq ??= this.pushed++;
    this.items.push(item);
    this.up(this.items.length - 1);
  }

  pop(): T | undefined {
    const top = this.items[0];
    const last = this.items.pop();
    if (top !== undefined && last !== undefined && this.items.length > 0) {
      this.items[0] = last;
      this.down(0);
    }
    return top;
  }

  /** True when `a` comes out before `b`. */
  private before(a: T, b: T): boolean {
    return a.gain > b.gain || (a.gain === b.gain && a.seq! < b.seq!);
  }

  private up(i: number): void {
    const items = this.items;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(items[i]!, items[parent]!)) return;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  private down(i: number): void {
    const items = this.items;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let best = i;
      if (left < items.length && this.before(items[left]!, items[best]!)) best = left;
      if (right < items.length && this.before(items[right]!, items[best]!)) best = right;
      if (best === i) return;
      [items[i], items[best]] = [items[best]!, items[i]!];
      i = best;
    }
  }
}
