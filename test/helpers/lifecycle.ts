import { afterEach } from 'vitest';

export interface Closable {
  close(): Promise<void>;
}

/**
 * Wraps an opener (a sandbox, a server, a test world) so that whatever a test opens is closed
 * after that test, pass or fail. Call it where hooks may be registered: at file or suite level.
 */
export function closedAfterEach<A extends unknown[], T extends Closable>(
  open: (...args: A) => Promise<T>,
): (...args: A) => Promise<T> {
  const opened: T[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((resource) => resource.close()));
  });
  return async (...args) => {
    const resource = await open(...args);
    opened.push(resource);
    return resource;
  };
}
