import type * as nodeFs from 'node:fs';

/** What a process killed with SIGKILL does after its death: nothing. Thrown at every later write. */
export class Killed extends Error {
  constructor() {
    super('killed (simulated SIGKILL)');
    this.name = 'Killed';
  }
}

/** The calls that change what is on disk (a read-only open is not one). */
const WRITES = new Set([
  'writeFileSync',
  'appendFileSync',
  'writeSync',
  'fsync',
  'fsyncSync',
  'mkdirSync',
  'renameSync',
  'unlinkSync',
  'rmSync',
  'linkSync',
  'symlinkSync',
]);

function isWrite(name: string, args: unknown[]): boolean {
  if (name === 'openSync') return args[1] !== undefined && args[1] !== 'r';
  return WRITES.has(name);
}

/** `name file`, and for a journal line its type: `writeSync journal "sent"`. */
function describe(name: string, args: unknown[]): string {
  // Digests in names (plan id, dashboard key) vary per run; the kind of file does not.
  const file =
    typeof args[0] === 'string' ? args[0].replace(/^.*\//, '').replace(/[0-9a-f]{8,}/g, '<id>') : 'fd';
  const type = typeof args[1] === 'string' ? /"type":"([a-z-]+)"/.exec(args[1])?.[1] : undefined;
  return `${name} ${file}${type ? ` (${type})` : ''}`;
}

export interface DyingFs {
  fs: typeof nodeFs;
  /** The writes made (or attempted at death), in order: `name path-or-fd`. */
  writes: string[];
  dead(): boolean;
}

/**
 * A file system that dies at its `dieAt`-th write (1-based): that write and every later one is
 * never made and throws Killed, as if the process had been killed just before it. What is on
 * disk then is exactly what a SIGKILL at that point leaves; the apply's own error paths cannot
 * write anything more. `dieAt` of Infinity never dies (to list the writes).
 */
export function dyingFs(base: typeof nodeFs, dieAt: number): DyingFs {
  const writes: string[] = [];
  let dead = false;
  const proxy = new Proxy(base, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const name = String(property);
      return (...args: unknown[]) => {
        if (isWrite(name, args)) {
          if (!dead) writes.push(describe(name, args));
          if (dead || writes.length >= dieAt) {
            dead = true;
            throw new Killed();
          }
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { fs: proxy, writes, dead: () => dead };
}
