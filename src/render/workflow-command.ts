/**
 * GitHub workflow commands for annotations: `::error file=F,line=L,col=C,title=T::message`.
 * The runner splits a command on `::`, its properties on `,` and `=`, and reads one command per
 * line, so values are escaped exactly as the runner's own toolkit (@actions/core) does: in the
 * message `%`, `\r`, `\n`; in properties also `:` and `,`. Without this a file name with a comma
 * or a message with a newline would cut the annotation short or start a second command (a
 * message quoting the user's YAML is untrusted in a pull request). The one implementation:
 * every annotation is written through render/diagnostics.ts, which uses it. Pure.
 */
export type AnnotationLevel = 'error' | 'warning' | 'notice';

/** In the order they are written; empty and undefined values are left out. */
export interface AnnotationProperties {
  file?: string | undefined;
  line?: number | undefined;
  endLine?: number | undefined;
  col?: number | undefined;
  endColumn?: number | undefined;
  title?: string | undefined;
}

/** Escapes a command's message: `%`, CR and LF. */
export function escapeData(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a property value: as the message, plus `:` and `,`, which delimit properties. */
export function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One annotation command, ending in a newline. */
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
