import type { Diagnostic } from '../errors.js';

/**
 * GitHub workflow commands for annotations: `::error file=F,line=L,col=C,title=T::message`.
 * The runner splits on `::`, `,` and newlines, so values are escaped exactly as the runner's own
 * toolkit does: in the message `%`, `\r`, `\n`; in properties also `:` and `,`. Without this a
 * file name with a comma or a message with a newline would cut the annotation short or inject
 * a second workflow command.
 */
export type AnnotationLevel = 'error' | 'warning' | 'notice';

export interface AnnotationProperties {
  title?: string;
  file?: string;
  line?: number;
  endLine?: number;
  col?: number;
  endColumn?: number;
}

export function escapeData(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function formatAnnotation(
  level: AnnotationLevel,
  message: string,
  properties: AnnotationProperties = {},
): string {
  const props = Object.entries(properties)
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(',');
  return `::${level}${props ? ` ${props}` : ''}::${escapeData(message)}\n`;
}

/**
 * One annotation for a diagnostic. `toRepoPath` turns the diagnostic's file into a path relative
 * to the repository root, which GitHub needs to attach the annotation to the file in the PR.
 */
export function diagnosticAnnotation(diagnostic: Diagnostic, toRepoPath: (file: string) => string): string {
  const where = diagnostic.path ? ` (at ${diagnostic.path})` : '';
  const hint = diagnostic.hint ? `\nhint: ${diagnostic.hint}` : '';
  const properties: AnnotationProperties = { title: `svc-gitops ${diagnostic.rule}` };
  if (diagnostic.file) properties.file = toRepoPath(diagnostic.file);
  if (diagnostic.line !== undefined) properties.line = diagnostic.line;
  if (diagnostic.col !== undefined) properties.col = diagnostic.col;
  return formatAnnotation(diagnostic.severity, `${diagnostic.message}${where}${hint}`, properties);
}
