import { SvcError } from '../../src/errors.js';

/**
 * The SvcError a promise rejects with. Any other rejection is rethrown and a promise that
 * resolves fails the test, so an assertion on the result can never pass by accident.
 */
export async function svcError(promise: Promise<unknown>): Promise<SvcError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SvcError) return error;
    throw error;
  }
  throw new Error('expected an SvcError');
}

/** The SvcError `run` throws; same rules as `svcError`, for synchronous code. */
export function svcErrorSync(run: () => unknown): SvcError {
  try {
    run();
  } catch (error) {
    if (error instanceof SvcError) return error;
    throw error;
  }
  throw new Error('expected an SvcError');
}
