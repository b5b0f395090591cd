import type { Diagnostic } from '../errors.js';
import type { SourceRef } from '../types.js';
import type { Place } from './model.js';

/** Resolves a place (file + JSON path) to a line and column in that file. */
export type Locate = (place: Place, key?: boolean) => SourceRef;

export interface DiagnosticInput {
  rule: string;
  message: string;
  place: Place;
  severity?: 'error' | 'warning';
  hint?: string | undefined;
  /** Point at the key rather than the value (e.g. a group's name). */
  key?: boolean;
  related?: Array<{ place: Place; message: string }>;
}

/** Builds a located diagnostic; `related` places become the "other place involved". */
export function diagnostic(locate: Locate, input: DiagnosticInput): Diagnostic {
  const source = locate(input.place, input.key);
  const d: Diagnostic = {
    severity: input.severity ?? 'error',
    rule: input.rule,
    message: input.message,
    file: source.file,
    line: source.line,
    col: source.col,
    path: source.path,
  };
  if (input.hint) d.hint = input.hint;
  if (input.related && input.related.length > 0) {
    d.related = input.related.map((r) => {
      const other = locate(r.place, true);
      return { file: other.file, line: other.line, col: other.col, message: r.message };
    });
  }
  return d;
}

/** `file:line:col`, for naming a place inside a message. */
export function placeText(locate: Locate, place: Place): string {
  const s = locate(place, true);
  return `${s.file}:${s.line}:${s.col}`;
}
