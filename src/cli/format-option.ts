import { Option } from 'commander';

/**
 * `--format text|json` for the commands whose output is not a plan or a report. With json they
 * print one document of `schemas/command-report.schema.json` (its `kind` names the command), and
 * any error as `schemas/error.schema.json`.
 */
export const TEXT_OR_JSON = ['text', 'json'] as const;
export type TextOrJson = (typeof TEXT_OR_JSON)[number];

export function textOrJsonOption(what: string): Option {
  return new Option('--format <format>', `output format (json: ${what})`)
    .choices(TEXT_OR_JSON)
    .default('text');
}

/** One document, one line: what a script reads with a single JSON.parse. */
export function jsonLine(document: object): string {
  return `${JSON.stringify(document)}\n`;
}
