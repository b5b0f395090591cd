import * as fs from 'node:fs';
import { packageFile } from '../package-files.js';

/**
 * The fleet file format and the control routes, for `sandbox --help`: the text itself, taken
 * from the package's examples/sandbox/README.md (shipped with it), since a path inside the
 * package means nothing to someone who installed it. One source, so the help cannot drift from
 * the document.
 */
export function fleetFormatHelp(): string {
  let readme: string;
  try {
    readme = fs.readFileSync(packageFile('examples/sandbox/README.md'), 'utf8');
  } catch {
    return '';
  }
  const format = /## Fleet file format\n\n```yaml\n([\s\S]*?)```\n\n([\s\S]*?)\n\n/.exec(readme);
  const routes = /### Control routes[^\n]*\n\n([\s\S]*?)\n\n/.exec(readme);
  const parts: string[] = [];
  if (format) {
    const [, yaml = '', after = ''] = format;
    parts.push('Fleet file (--fleet FILE), YAML:', indent(yaml.trimEnd()), indent(after.replaceAll('`', '')));
  }
  if (routes)
    parts.push(
      'Control routes (loopback only, no auth):',
      indent((routes[1] ?? '').replaceAll('`', '').replaceAll(' (above)', '')),
    );
  return parts.length === 0 ? '' : `\n${parts.join('\n')}\n`;
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
