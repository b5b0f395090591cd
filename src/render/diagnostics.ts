import type { Diagnostic } from '../errors.js';
import { styles } from './ansi.js';
import { safeText } from './safe-text.js';
import { formatAnnotation } from './workflow-command.js';

export { escapeData, escapeProperty } from './workflow-command.js';

/**
 * Diagnostic[] → text for people, GitHub workflow annotations, or JSON. Pure. Messages quote
 * the user's YAML, which in a pull request is untrusted: text output neutralises control
 * characters, annotations escape the workflow-command syntax.
 */
export type DiagnosticFormat = 'text' | 'github' | 'json';
export const DIAGNOSTIC_FORMATS: readonly DiagnosticFormat[] = ['text', 'github', 'json'];

/** Stable order: by file, line, column; diagnostics without a file first. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      (a.file ?? '').localeCompare(b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.col ?? 0) - (b.col ?? 0),
  );
}

export function countDiagnostics(diagnostics: readonly Diagnostic[]): { errors: number; warnings: number } {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  return { errors, warnings: diagnostics.length - errors };
}

/** `file:line:col: error [rule] message (at /json/path)` plus indented hint and related lines. */
export function renderDiagnosticsText(
  diagnostics: readonly Diagnostic[],
  o: { colour?: boolean } = {},
): string {
  const s = styles(o.colour ?? false);
  const lines: string[] = [];
  for (const d of sortDiagnostics(diagnostics)) {
    const where = location(d);
    const severity = d.severity === 'error' ? s.red('error') : s.yellow('warning');
    const at = d.path ? s.dim(` (at ${safeText(d.path)})`) : '';
    lines.push(
      `${where ? `${s.bold(safeText(where))}: ` : ''}${severity} [${d.rule}] ${safeText(d.message)}${at}`,
    );
    if (d.hint) lines.push(`  hint: ${safeText(d.hint)}`);
    for (const r of d.related ?? []) {
      lines.push(
        `  see: ${safeText(`${r.file}:${r.line}:${r.col}`)}${r.message ? ` ${safeText(r.message)}` : ''}`,
      );
    }
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** One `::error …::` / `::warning …::` workflow command per diagnostic. */
export function renderDiagnosticsGithub(diagnostics: readonly Diagnostic[]): string {
  return sortDiagnostics(diagnostics)
    .map((d) => {
      const body = [
        `${d.message}${d.path ? ` (at ${d.path})` : ''}`,
        ...(d.hint ? [`hint: ${d.hint}`] : []),
        ...(d.related ?? []).map(
          (r) => `see: ${r.file}:${r.line}:${r.col}${r.message ? ` ${r.message}` : ''}`,
        ),
      ].join('\n');
      const title = `svc-gitops ${d.rule}`;
      return formatAnnotation(d.severity, body, { file: d.file, line: d.line, col: d.col, title });
    })
    .join('');
}

/** `{valid, errors, warnings, diagnostics}` with diagnostics in the stable order; one line per call. */
export function renderDiagnosticsJson(
  diagnostics: readonly Diagnostic[],
  extra: Record<string, unknown> = {},
): string {
  const { errors, warnings } = countDiagnostics(diagnostics);
  return `${JSON.stringify({ valid: errors === 0, errors, warnings, ...extra, diagnostics: sortDiagnostics(diagnostics) }, null, 2)}\n`;
}

function location(d: Diagnostic): string {
  if (!d.file) return '';
  if (d.line === undefined) return d.file;
  return `${d.file}:${d.line}:${d.col ?? 1}`;
}
