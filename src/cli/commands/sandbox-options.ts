import { SvcError } from '../../errors.js';
import {
  type GenerateFleetOptions,
  isQuirkName,
  QUIRK_NAMES,
  type QuirkName,
  type SiteCost,
} from '../../sandbox/index.js';

/** `--quirk NAME=on|off`, repeatable: overrides of single switches on top of the profile. */
export function parseQuirkFlags(values: readonly string[]): Partial<Record<QuirkName, boolean>> {
  const overrides: Partial<Record<QuirkName, boolean>> = {};
  for (const value of values) {
    const match = /^([A-Za-z0-9]+)=(on|off)$/.exec(value);
    if (!match) {
      throw new SvcError('USAGE', `--quirk "${value}" must be NAME=on or NAME=off`, {
        hint: `names: ${QUIRK_NAMES.join(', ')}`,
      });
    }
    const [, name = '', state] = match;
    if (!isQuirkName(name)) {
      throw new SvcError('USAGE', `unknown quirk "${name}" in --quirk`, {
        hint: `names: ${QUIRK_NAMES.join(', ')}`,
      });
    }
    overrides[name] = state === 'on';
  }
  return overrides;
}

/** `--surfaces abilities,rest`: which APIs the dashboard offers (at least one). */
export function parseSurfaces(value: string): { rest: boolean; abilities: boolean } {
  const names = value.split(',').map((s) => s.trim());
  const unknown = names.filter((n) => n !== 'abilities' && n !== 'rest');
  if (unknown.length > 0 || names.length === 0 || names.every((n) => n === '')) {
    throw new SvcError('USAGE', `--surfaces "${value}" must list abilities, rest or both (comma-separated)`);
  }
  return { abilities: names.includes('abilities'), rest: names.includes('rest') };
}

const GENERATE_KEYS: Record<string, { field: keyof GenerateFleetOptions; min: number; max: number }> = {
  sites: { field: 'sites', min: 1, max: 200_000 },
  pending: { field: 'pendingPerSite', min: 0, max: 50 },
  ignored: { field: 'ignoredPerSite', min: 0, max: 50 },
  plugins: { field: 'pluginsPerSite', min: 1, max: 100 },
  flagged: { field: 'flaggedPercent', min: 0, max: 100 },
  seed: { field: 'seed', min: 0, max: 2 ** 31 - 1 },
};

/** `--generate sites=10000,pending=6,ignored=3[,plugins=8,flagged=5,seed=1]`: a generated fleet. */
export function parseGenerate(value: string): GenerateFleetOptions {
  const options: GenerateFleetOptions = { sites: 0, pendingPerSite: 6, seed: 1 };
  for (const part of value.split(',')) {
    const match = /^([a-z]+)=(\d+)$/.exec(part.trim());
    const key = match ? GENERATE_KEYS[match[1] ?? ''] : undefined;
    if (!match || !key) {
      throw new SvcError('USAGE', `--generate "${part}" is not KEY=N`, {
        hint: `keys: ${Object.keys(GENERATE_KEYS).join(', ')}; for example --generate sites=10000,pending=6,ignored=3`,
      });
    }
    const n = Number(match[2]);
    if (n < key.min || n > key.max)
      throw new SvcError('USAGE', `--generate ${match[1]} must be from ${key.min} to ${key.max}, got ${n}`);
    (options as unknown as Record<string, number>)[key.field] = n;
  }
  if (options.sites === 0)
    throw new SvcError('USAGE', '--generate needs sites=N', {
      hint: 'for example --generate sites=10000,pending=6,ignored=3',
    });
  return options;
}

/** `--site-cost MS`: the site-cost model's milliseconds per site (a decimal ≥ 0; 0 turns it off). */
export function parseSiteCost(value: string): SiteCost {
  const ms = /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isFinite(ms) || ms > 60_000)
    throw new SvcError(
      'USAGE',
      `--site-cost "${value}" must be milliseconds from 0 to 60000, for example 0.8`,
    );
  return { msPerSite: ms };
}
