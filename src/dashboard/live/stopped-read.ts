import { isSvcError, SvcError } from '../../errors.js';
import type { ReadLiveOptions, ReadProgress } from '../client.js';

/**
 * Runs a live read and, when it is interrupted, says how far it got: the transport's message
 * covers only the request in hand ("before the dashboard answered"), which reads as if no
 * request had been answered. Still INTERRUPTED, with the transport's details.
 */
export async function countingRead<T>(
  options: ReadLiveOptions,
  read: (options: ReadLiveOptions) => Promise<T>,
): Promise<T> {
  let answered: ReadProgress = { done: 0, total: undefined, sites: 0 };
  try {
    return await read({
      ...options,
      onProgress: (progress) => {
        answered = progress;
        options.onProgress?.(progress);
      },
    });
  } catch (error) {
    if (!isSvcError(error) || error.code !== 'INTERRUPTED') throw error;
    throw new SvcError('INTERRUPTED', `the read was stopped ${howFar(answered)}`, {
      details: error.details,
      cause: error,
    });
  }
}

function howFar({ done, total }: ReadProgress): string {
  if (done === 0) return 'before the dashboard answered any request';
  const of = total === undefined ? '' : ` of ${total}`;
  return `after ${done}${of} request${(total ?? done) === 1 ? '' : 's'}`;
}
