import type { FleetItem, FleetTranslation } from './fleet-types.js';

export interface Reader {
  fail(path: Array<string | number>, what: string): never;
}

const VERSION = /^[0-9A-Za-z.+-]+$/;

/** `"6.8.1 -> 6.8.3"` (pending update) or `"6.8.3"` (up to date). */
export function versionMove(
  reader: Reader,
  raw: unknown,
  path: Array<string | number>,
): { version: string; update: string | null } {
  const text = typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string')
    return reader.fail(path, 'a version must be a string like "6.8.1 -> 6.8.3" or "6.8.3"');
  const [from, to, ...rest] = text.split('->').map((part) => part.trim());
  if (!from || !VERSION.test(from) || rest.length > 0 || (to !== undefined && !VERSION.test(to))) {
    return reader.fail(path, `"${text}" is not a version or a move "<from> -> <to>"`);
  }
  return { version: from, update: to ?? null };
}

/** A map `slug: "<from> -> <to>"` or `slug: {name, version, update}`. */
export function readItems(
  reader: Reader,
  raw: unknown,
  path: Array<string | number>,
  kind: 'plugin' | 'theme',
  nameOf: (slug: string) => string,
): FleetItem[] {
  if (raw === undefined || raw === null) return [];
  if (!isObject(raw)) return reader.fail(path, `\`${kind}s\` must be a mapping of slug to version`);
  return Object.entries(raw).map(([slug, value]) => {
    const itemPath = [...path, slug];
    checkSlug(reader, kind, slug, itemPath);
    if (!isObject(value)) {
      const move = versionMove(reader, value, itemPath);
      return { slug, name: nameOf(slug), version: move.version, update: move.update };
    }
    onlyKeys(reader, value, itemPath, ['name', 'version', 'update']);
    const move = versionMove(reader, value.version, [...itemPath, 'version']);
    const update = value.update === undefined || value.update === null ? null : String(value.update);
    if (value.name !== undefined && typeof value.name !== 'string')
      reader.fail([...itemPath, 'name'], '`name` must be a string');
    return { slug, name: (value.name as string | undefined) ?? nameOf(slug), version: move.version, update };
  });
}

function checkSlug(
  reader: Reader,
  kind: 'plugin' | 'theme',
  slug: string,
  path: Array<string | number>,
): void {
  const ok = kind === 'plugin' ? /^([\w.-]+\/)?[\w.-]+\.php$/.test(slug) : /^[\w.-]+$/.test(slug);
  if (!ok) {
    reader.fail(
      path,
      kind === 'plugin'
        ? `plugin slug "${slug}" must look like <folder>/<file>.php or <file>.php`
        : `theme slug "${slug}" must be a folder name`,
    );
  }
}

/** A list of `{slug, language, version, name?}`; each one is a pending translation update. */
export function readTranslations(
  reader: Reader,
  raw: unknown,
  path: Array<string | number>,
  nameOf: (slug: string) => string,
): FleetTranslation[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) return reader.fail(path, '`translations` must be a list');
  return raw.map((entry, index) => {
    const itemPath = [...path, index];
    if (!isObject(entry))
      return reader.fail(itemPath, 'a translation must be a mapping {slug, language, version}');
    onlyKeys(reader, entry, itemPath, ['slug', 'language', 'version', 'name']);
    const { slug, language, version, name } = entry;
    if (typeof slug !== 'string' || typeof language !== 'string') {
      return reader.fail(
        itemPath,
        'a translation needs string `slug` (folder or "default") and `language` (e.g. de_DE)',
      );
    }
    const v = versionMove(reader, version, [...itemPath, 'version']).version;
    return { slug, language, version: v, name: typeof name === 'string' ? name : nameOf(slug) };
  });
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function onlyKeys(
  reader: Reader,
  value: Record<string, unknown>,
  path: Array<string | number>,
  allowed: string[],
): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key))
      reader.fail([...path, key], `unknown key \`${key}\` (allowed: ${allowed.join(', ')})`);
  }
}
