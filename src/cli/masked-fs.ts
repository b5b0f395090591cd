import type * as nodeFs from 'node:fs';

/**
 * The command's file system with every string written through it masked: saved plans, apply
 * reports, the journal, the step summary and action outputs pass the same mask as stdout, so a
 * secret that reached any of them (an echo in a spelling nothing upstream knew, a value typed
 * into the YAML) leaves no file holding it. Buffers are written as given (svc-gitops writes its
 * text as strings); reads are untouched.
 */
export function maskedFs(fs: typeof nodeFs, mask: (text: string) => string): typeof nodeFs {
  const writeFileSync: typeof nodeFs.writeFileSync = (file, data, options) =>
    fs.writeFileSync(file, typeof data === 'string' ? mask(data) : data, options);
  const appendFileSync: typeof nodeFs.appendFileSync = (file, data, options) =>
    fs.appendFileSync(file, typeof data === 'string' ? mask(data) : data, options);
  const writeSync = ((fd: number, data: unknown, ...rest: unknown[]) =>
    (fs.writeSync as (...args: unknown[]) => number)(
      fd,
      typeof data === 'string' ? mask(data) : data,
      ...rest,
    )) as typeof nodeFs.writeSync;
  return new Proxy(fs, {
    get(target, name, receiver) {
      if (name === 'writeFileSync') return writeFileSync;
      if (name === 'appendFileSync') return appendFileSync;
      if (name === 'writeSync') return writeSync;
      return Reflect.get(target, name, receiver);
    },
  });
}
