import { randomUUID } from 'node:crypto';
import type * as nodeFs from 'node:fs';
import { SvcError } from '../errors.js';

/**
 * Step outputs through `$GITHUB_OUTPUT`, always in the heredoc form `name<<DELIM\nvalue\nDELIM`
 * so a value may hold newlines. The delimiter is random per value and checked against the value
 * (as the runner's toolkit does): a value cannot end the block early and forge other outputs.
 */
export type OutputsFs = Pick<typeof nodeFs, 'appendFileSync'>;

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export function formatOutput(
  name: string,
  value: string,
  delimiter: string = `ghadelimiter_${randomUUID()}`,
): string {
  if (!NAME.test(name)) throw new SvcError('INTERNAL', `invalid step output name ${JSON.stringify(name)}`);
  if (name.includes(delimiter) || value.includes(delimiter)) {
    throw new SvcError('INTERNAL', `step output ${name}: the value contains its delimiter`);
  }
  return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}

export function appendOutputs(
  fs: OutputsFs,
  path: string,
  outputs: Record<string, string | number | boolean>,
): void {
  const text = Object.entries(outputs)
    .map(([name, value]) => formatOutput(name, String(value)))
    .join('');
  try {
    fs.appendFileSync(path, text, 'utf8');
  } catch (error) {
    throw new SvcError('IO_ERROR', `cannot write step outputs to ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
