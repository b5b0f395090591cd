import type * as nodeFs from 'node:fs';
import * as path from 'node:path';
import { closest } from '../config/did-you-mean.js';
import { jsonSyntaxPlace, SvcError } from '../errors.js';
import type { SettingsValidator } from './schema.js';
import { productVariable } from './types.js';

export interface SettingsFile {
  path: string;
  values: Record<string, unknown>;
  /** True for `./settings.json`, which shadows the per-user file (worth a warning). */
  inWorkingDirectory: boolean;
  /** The named dashboard whose settings were laid over the file's own, when one was chosen. */
  dashboard?: string;
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
  dashboard?: string,
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
    const chosen = chooseDashboard(values, file, validator, dashboard, productVariable('DASHBOARD', product));
    return {
      path: file,
      values: chosen.values,
      inWorkingDirectory: index === 0,
      ...(chosen.name === undefined ? {} : { dashboard: chosen.name }),
    };
  }
  if (dashboard !== undefined) {
    throw new SvcError(
      'SETTINGS_INVALID',
      `dashboard "${dashboard}" was chosen, but no settings file was found`,
      {
        hint: `Named dashboards live under "dashboards" in ${candidates.join(' or ')}.`,
      },
    );
  }
  return undefined;
}

/**
 * A settings file may hold several dashboards: `{"dashboards": {"prod": {…}, "staging": {…}}}`,
 * each entry any settings keys, laid over the file's own keys (shared defaults). One is chosen
 * by name (--dashboard NAME or SVC_DASHBOARD); a file with dashboards and no URL of its own needs
 * a choice, so a command never talks to a dashboard nobody named.
 */
function chooseDashboard(
  values: unknown,
  file: string,
  validator: SettingsValidator,
  dashboard: string | undefined,
  /** The variable that names the dashboard (SVC_DASHBOARD under the default product). */
  dashboardVariable: string,
): { values: Record<string, unknown>; name?: string } {
  if (values === null || typeof values !== 'object' || Array.isArray(values) || !('dashboards' in values)) {
    validator.check(values, file);
    if (dashboard !== undefined) {
      throw new SvcError(
        'SETTINGS_INVALID',
        `${file}: dashboard "${dashboard}" was chosen, but the file names no dashboards`,
        {
          hint: `Add "dashboards": {"<name>": {"dashboardUrl": …}} to the file, or unset ${dashboardVariable} / drop --dashboard.`,
          details: { file },
        },
      );
    }
    return { values: values as Record<string, unknown> };
  }
  const { dashboards, ...shared } = values as Record<string, unknown>;
  validator.check(shared, file);
  if (dashboards === null || typeof dashboards !== 'object' || Array.isArray(dashboards)) {
    throw new SvcError('SETTINGS_INVALID', `${file}: "dashboards" must be an object of named dashboards`, {
      hint: 'e.g. "dashboards": {"prod": {"dashboardUrl": "https://prod.example.com"}}',
      details: { file },
    });
  }
  const named = dashboards as Record<string, unknown>;
  for (const [name, entry] of Object.entries(named)) {
    validator.check(entry, `${file}: dashboards.${name}`);
    if (typeof entry === 'object' && entry !== null && 'dashboards' in entry) {
      throw new SvcError('SETTINGS_INVALID', `${file}: dashboards.${name} holds "dashboards" of its own`, {
        hint: 'Named dashboards do not nest: list them all under the file\'s one "dashboards".',
        details: { file },
      });
    }
  }
  const names = Object.keys(named);
  if (dashboard === undefined) {
    if (typeof shared.dashboardUrl === 'string' && shared.dashboardUrl !== '') return { values: shared };
    throw new SvcError(
      'SETTINGS_INVALID',
      `${file} names several dashboards (${names.join(', ')}); none was chosen`,
      {
        hint: `Choose one with --dashboard NAME or ${dashboardVariable}=NAME.`,
        details: { file },
      },
    );
  }
  const entry = Object.hasOwn(named, dashboard) ? named[dashboard] : undefined;
  if (entry === undefined) {
    const meant = closest(dashboard, names);
    throw new SvcError(
      'SETTINGS_INVALID',
      `${file}: no dashboard named "${dashboard}"${meant ? ` (did you mean "${meant}"?)` : ''}`,
      {
        hint: `The file names: ${names.join(', ') || 'none'}.`,
        details: { file },
      },
    );
  }
  return { values: { ...shared, ...(entry as Record<string, unknown>) }, name: dashboard };
}
