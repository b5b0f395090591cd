import type * as nodeFs from 'node:fs';

/**
 * A file system whose `onResult(n)` runs as the n-th call's answer is journalled, before the
 * next call can start: a test acts (stops the sandbox, presses Ctrl-C) at exactly that point of
 * an apply, without depending on timing.
 */
export function hookedFs(memory: typeof nodeFs, onResult: (n: number) => void): typeof nodeFs {
  let results = 0;
  return new Proxy(memory, {
    get(target, property, receiver) {
      if (property === 'writeSync') {
        return (fd: number, data: string) => {
          const written = target.writeSync(fd, data);
          if (typeof data === 'string' && data.includes('"type":"result"')) onResult(++results);
          return written;
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
