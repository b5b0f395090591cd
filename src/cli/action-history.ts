import type * as nodeFs from 'node:fs';
import { resolve } from 'node:path';
import { actionsRun, appendOutputs } from '../github/index.js';
import { historyPath, stateDirOf } from '../index.js';
import { historyArtifactLine } from '../render/index.js';
import type { CliContext } from './context.js';
import { cliSettings } from './pipeline.js';

/** The history artifact's name unless the step names another (input history-artifact-name). */
export const HISTORY_ARTIFACT = 'svc-gitops-history';

/** The history file and its size before an apply: what the apply appends comes after `size`. */
export interface HistoryMark {
  file: string;
  size: number;
}

/** Before an apply in the Action: where its history goes and how long the file is now. */
export function markHistory(ctx: CliContext, env: CliContext['env']): HistoryMark | undefined {
  let file: string;
  try {
    file = historyPath(resolve(ctx.cwd, stateDirOf(env)), cliSettings({ ...ctx, env }).historyFile);
  } catch {
    return undefined; // settings that do not load: apply will say so
  }
  return { file, size: sizeOf(ctx.fs, file) };
}

/**
 * After an apply in the Action that appended to the history: names the file in the output
 * `history-file` (for the workflow's upload-artifact step) and ends the apply report, the
 * comment the template posts on the merged pull request, with a link to the run whose artifacts
 * hold it, by the name the step's `history-artifact-name` gives it. An apply that appended
 * nothing (nothing to do, refused before any call) leaves neither: a history restored from an
 * earlier run is not this run's.
 */
export function linkHistory(
  ctx: CliContext,
  env: CliContext['env'],
  reportFile: string,
  mark: HistoryMark | undefined,
  artifactName: string,
): void {
  if (mark === undefined) return;
  const records = linesAfter(ctx.fs, mark.file, mark.size);
  if (records === 0) return;
  const outputs = env.GITHUB_OUTPUT;
  if (outputs) appendOutputs(ctx.fs, outputs, { 'history-file': mark.file });
  if (!ctx.fs.existsSync(reportFile)) return;
  const runUrl = actionsRun(env).runUrl;
  const artifact = {
    name: artifactName || HISTORY_ARTIFACT,
    ...(runUrl === undefined ? {} : { url: runUrl }),
  };
  ctx.fs.appendFileSync(reportFile, `\n${historyArtifactLine(artifact, records)}\n`);
}

function sizeOf(fs: typeof nodeFs, file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** The lines (records: one per line) a file holds after byte `from`, read in chunks. */
function linesAfter(fs: typeof nodeFs, file: string, from: number): number {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return 0;
  }
  try {
    const buffer = Buffer.alloc(64 * 1024);
    let lines = 0;
    for (let position = from; ; ) {
      const read = fs.readSync(fd, buffer, 0, buffer.length, position);
      if (read === 0) return lines;
      for (let i = 0; i < read; i++) if (buffer[i] === 0x0a) lines++;
      position += read;
    }
  } finally {
    fs.closeSync(fd);
  }
}
