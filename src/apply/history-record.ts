import type * as nodeFs from 'node:fs';
import type { ApplyResult } from '../types.js';
import { appendHistory, historyPath, historyRecords } from './history.js';
import type { StatePaths } from './state-dir.js';

/**
 * Appends a finished run's records to the history. The calls have been made by then, so a
 * history that cannot be written is a warning, never a failed apply: the result still reaches
 * the caller, and the journal keeps what resume needs.
 */
export function recordHistory(
  fs: typeof nodeFs,
  paths: StatePaths,
  setting: string | undefined,
  result: ApplyResult,
  dashboard: string,
  onWarning: ((message: string) => void) | undefined,
): void {
  try {
    appendHistory(fs, historyPath(paths.dir, setting), historyRecords(result, dashboard));
  } catch (error) {
    onWarning?.(`the apply history was not written: ${(error as Error).message}`);
  }
}
