import { compareDiagnostics, type Diagnostic } from '../errors.js';
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
  return [...diagnostics].sort(compareDiagnostics);
}

/**
 * At most this many diagnostics are printed per run as text or annotations: a huge broken file can
 * hold thousands, and nobody reads past the first screens (GitHub shows even fewer annotations).
 * The rest are summed up in one closing line; counts, verdict and exit code always cover them all.
 */
export const MAX_PRINTED_DIAGNOSTICS = 50;

/**
 * JSON lists more, for machines, but is bounded too: a 4 MiB file can hold a million errors, whose
 * JSON would run to hundreds of megabytes. `omitted` says how many were left out.
 */
export const MAX_JSON_DIAGNOSTICS = 1000;

interface Selection {
  /** In the stable order. */
  shown: Diagnostic[];
  omitted: { errors: number; warnings: number };
}

/**
 * At most `limit` diagnostics: errors before warnings (a flood of warnings never hides an error),
 * the first of each by place, listed in the stable order.
 */
export function selectDiagnostics(diagnostics: readonly Diagnostic[], limit: number): Selection {
  const { errors, warnings } = countDiagnostics(diagnostics);
  const errorsShown = Math.min(errors, limit);
  const warningsShown = Math.min(warnings, limit - errorsShown);
  let e = 0;
  let w = 0;
  const shown = sortDiagnostics(diagnostics).filter((d) =>
    d.severity === 'error' ? e++ < errorsShown : w++ < warningsShown,
  );
  return { shown, omitted: { errors: errors - errorsShown, warnings: warnings - warningsShown } };
}

/** `... 950 more diagnostics not shown (940 errors, 10 warnings)`, or nothing when none are left out. */
function omittedLine({ errors, warnings }: Selection['omitted']): string {
  const total = errors + warnings;
  if (total === 0) return '';
  const parts = [
    ...(errors > 0 ? [plural(errors, 'error')] : []),
    ...(warnings > 0 ? [plural(warnings, 'warning')] : []),
  ];
  return `... ${total} more ${total === 1 ? 'diagnostic' : 'diagnostics'} not shown (${parts.join(', ')})\n`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function countDiagnostics(diagnostics: readonly Diagnostic[]): { errors: number; warnings: number } {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  return { errors, warnings: diagnostics.length - errors };
}

/**
 * `file:line:col: error [rule] message (at /json/path)` plus indented hint and related lines; at
 * most MAX_PRINTED_DIAGNOSTICS, then a line counting the rest.
 */
export function renderDiagnosticsText(
  diagnostics: readonly Diagnostic[],
  o: { colour?: boolean } = {},
): string {
  const s = styles(o.colour ?? false);
  const { shown, omitted } = selectDiagnostics(diagnostics, MAX_PRINTED_DIAGNOSTICS);
  const lines: string[] = [];
  for (const d of shown) {
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
  return (lines.length === 0 ? '' : `${lines.join('\n')}\n`) + omittedLine(omitted);
}

/**
 * One `::error …::` / `::warning …::` workflow command per diagnostic, at most
 * MAX_PRINTED_DIAGNOSTICS, then a plain log line counting the rest.
 */
export function renderDiagnosticsGithub(diagnostics: readonly Diagnostic[]): string {
  const { shown, omitted } = selectDiagnostics(diagnostics, MAX_PRINTED_DIAGNOSTICS);
  const annotations = shown
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
  return annotations + omittedLine(omitted);
}

/**
 * `{valid, errors, warnings, omitted, …extra, diagnostics}`: counts of all diagnostics, at most
 * MAX_JSON_DIAGNOSTICS of them listed in the stable order, `omitted` how many were left out.
 */
export function renderDiagnosticsJson(
  diagnostics: readonly Diagnostic[],
  extra: Record<string, unknown> = {},
): string {
  const { errors, warnings } = countDiagnostics(diagnostics);
  const { shown, omitted } = selectDiagnostics(diagnostics, MAX_JSON_DIAGNOSTICS);
  const report = {
    valid: errors === 0,
    errors,
    warnings,
    omitted: omitted.errors + omitted.warnings,
    ...extra,
    diagnostics: shown,
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}

function location(d: Diagnostic): string {
  if (!d.file) return '';
  if (d.line === undefined) return d.file;
  return `${d.file}:${d.line}:${d.col ?? 1}`;
}
