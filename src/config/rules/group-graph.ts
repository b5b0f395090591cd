import type { RawGroup } from '../model.js';

/** Groups by name, as merged. */
type Groups = ReadonlyMap<string, RawGroup>;

/** The groups a group references directly (`group:<name>` items naming a defined group). */
function edges(groups: Groups, name: string): string[] {
  const out: string[] = [];
  for (const { item } of groups.get(name)?.items ?? []) {
    if (item.type === 'group' && groups.has(item.name)) out.push(item.name);
  }
  return out;
}

/**
 * The groups that are on a cycle, each with its strongly connected component (Tarjan's
 * algorithm, iterative: a chain of 100,000 groups neither overflows the stack nor takes
 * quadratic time). A group is on a cycle when its component has more than one group or it
 * references itself.
 */
export function cyclicComponents(groups: Groups): Map<string, ReadonlySet<string>> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out = new Map<string, ReadonlySet<string>>();
  let next = 0;
  for (const root of groups.keys()) {
    if (index.has(root)) continue;
    const frames: Array<{ name: string; children: string[]; at: number }> = [];
    const enter = (name: string) => {
      index.set(name, next);
      low.set(name, next);
      next += 1;
      stack.push(name);
      onStack.add(name);
      frames.push({ name, children: edges(groups, name), at: 0 });
    };
    enter(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      if (frame.at < frame.children.length) {
        const child = frame.children[frame.at++]!;
        if (!index.has(child)) enter(child);
        else if (onStack.has(child)) low.set(frame.name, Math.min(low.get(frame.name)!, index.get(child)!));
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.name, Math.min(low.get(parent.name)!, low.get(frame.name)!));
      if (low.get(frame.name) !== index.get(frame.name)) continue;
      const component = new Set<string>();
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.add(member);
      } while (member !== frame.name);
      const cyclic = component.size > 1 || edges(groups, frame.name).includes(frame.name);
      if (cyclic) for (const name of component) out.set(name, component);
    }
  }
  return out;
}

/**
 * A shortest chain of references from `start` back to itself inside its component (breadth
 * first): `[b, a]` for `a → b → a`. Linear in the component.
 */
export function cycleThrough(groups: Groups, start: string, component: ReadonlySet<string>): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const current = queue[head]!;
    for (const child of edges(groups, current)) {
      if (!component.has(child)) continue;
      if (child === start) {
        const path: string[] = [];
        for (let at = current; at !== start; at = previous.get(at)!) path.unshift(at);
        return [...path, start];
      }
      if (previous.has(child)) continue;
      previous.set(child, current);
      queue.push(child);
    }
  }
  return [start];
}

/**
 * How many items each group expands to (its sites and globs, groups replaced by theirs),
 * counted once per group and capped just above `limit`: groups that each list another twice
 * double at every level, and the counts must not grow without bound. Only for groups without
 * cycles (the cycle rule runs first and stops the rules after it).
 */
export function expansionSizes(groups: Groups, limit: number): Map<string, number> {
  const size = new Map<string, number>();
  for (const root of groups.keys()) {
    if (size.has(root)) continue;
    const frames: Array<{ name: string; children: string[]; at: number }> = [
      { name: root, children: edges(groups, root), at: 0 },
    ];
    const entered = new Set([root]);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      if (frame.at < frame.children.length) {
        const child = frame.children[frame.at++]!;
        if (!size.has(child) && !entered.has(child)) {
          entered.add(child);
          frames.push({ name: child, children: edges(groups, child), at: 0 });
        }
        continue;
      }
      frames.pop();
      let total = 0;
      for (const { item } of groups.get(frame.name)!.items) {
        if (item.type !== 'group') total += 1;
        else total += size.get(item.name) ?? 0;
        if (total > limit) break;
      }
      size.set(frame.name, Math.min(total, limit + 1));
    }
  }
  return size;
}
