import type * as nodeFs from 'node:fs';
import * as path from 'node:path';
import { jsonSyntaxPlace, SvcError } from '../errors.js';
import type { SettingsValidator } from './schema.js';

export interface SettingsFile {
  path: string;
  values: Record<string, unknown>;
  /** True for `./settings.json`, which shadows the per-user file (worth a warning). */
  inWorkingDirectory: boolean;
}

/** The search order: the working directory first, then the per-user file. */
export function settingsFileCandidates(cwd: string, homeDir: string, product = 'svc'): string[] {
  return [path.join(cwd, 'settings.json'), userSettingsFile(homeDir, product)];
}

/** The per-user settings file: `~/.config/<product>-mcp/settings.json`. */
export function userSettingsFile(homeDir: string, product = 'svc'): string {
  return path.join(homeDir, '.config', `${product}-mcp`, 'settings.json');
}

/**
 * The first settings file found, parsed and validated against the schema, or undefined when
 * there is none. Files are never merged: the first one found is the whole file configuration.
 */
export function findSettingsFile(
  fs: typeof nodeFs,
  cwd: string,
  homeDir: string,
  validator: SettingsValidator,
  product = 'svc',
): SettingsFile | undefined {
  const candidates = settingsFileCandidates(cwd, homeDir, product);
  for (const [index, file] of candidates.entries()) {
    if (!fs.existsSync(file)) continue;
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8').toString();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      throw new SvcError('SETTINGS_INVALID', `${file}: cannot be read (${code})`, {
        hint: 'The settings file must be a readable JSON file; fix its permissions or move it away.',
        cause: error,
        details: { file },
      });
    }
    let values: unknown;
    try {
      values = JSON.parse(text);
    } catch (error) {
      // Never V8's message: it quotes the text around the error, which may be a password.
      throw new SvcError('SETTINGS_INVALID', `${file}: not valid JSON (${jsonSyntaxPlace(error, text)})`, {
        hint: 'The settings file must be one JSON object; check quotes and commas there.',
        details: { file },
      });
    }
    validator.check(values, file);
    return { path: file, values: values as Record<string, unknown>, inWorkingDirectory: index === 0 };
  }
  return undefined;
}
