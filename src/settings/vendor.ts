import { SvcError } from '../errors.js';
import type { SettingKey } from './types.js';

/**
 * The dashboard vendor's own tool server names some settings differently; a settings file or
 * environment written for it is read with the same meaning (its keys and variables are aliases,
 * ours stay). Setting a key under both names is an error, never a silent choice.
 */
export const FILE_KEY_ALIASES: Readonly<Record<string, SettingKey>> = {
  appPassword: 'applicationPassword',
  apiToken: 'token',
  abilityNamespace: 'namespace',
  abilityNamespaces: 'namespace',
};

/** Variable suffixes of the vendor's (`MAINWP_MAX_RETRIES`) that name one of our settings. */
export const VARIABLE_ALIASES: Readonly<Record<string, SettingKey>> = {
  MAX_RETRIES: 'maxRetries',
  ABILITY_NAMESPACE: 'namespace',
  ABILITY_NAMESPACES: 'namespace',
};

/** Keys whose value is a list in the vendor's file and a comma-separated string in ours. */
const LIST_KEYS = ['allowedTools', 'blockedTools'] as const;

/**
 * A settings file's values with the vendor's keys renamed to ours and its lists joined, for
 * values the schema already accepted. Warnings: list entries svc-gitops does not read.
 */
export function withOwnKeys(
  values: Record<string, unknown>,
  where: string,
): { values: Record<string, unknown>; warnings: string[] } {
  const out: Record<string, unknown> = { ...values };
  const warnings: string[] = [];
  for (const key of LIST_KEYS) {
    const value = out[key];
    if (Array.isArray(value)) out[key] = value.join(',');
  }
  /** Which name each renamed key came from, to name both when a key comes twice. */
  const from = new Map<string, string>();
  for (const [alias, key] of Object.entries(FILE_KEY_ALIASES)) {
    if (!(alias in out)) continue;
    let value = out[alias];
    delete out[alias];
    if (Array.isArray(value)) value = firstNamespace(value as string[], `${where}: ${alias}`, warnings);
    if (key in out && out[key] !== value) throw both(where, alias, from.get(key) ?? key);
    out[key] = value;
    from.set(key, alias);
  }
  return { values: out, warnings };
}

/** The namespace of a vendor namespace list (`mainwp,acme` or `["mainwp"]`): its first entry. */
export function firstNamespace(list: readonly string[], where: string, warnings: string[]): string {
  const names = list.map((name) => name.trim()).filter(Boolean);
  if (names.length > 1) {
    warnings.push(
      `${where} names ${names.length} namespaces; svc-gitops reads one interface namespace and uses the first (${names[0]})`,
    );
  }
  return names[0] ?? '';
}

function both(where: string, alias: string, key: string): SvcError {
  return new SvcError('SETTINGS_INVALID', `${where}: ${alias} and ${key} are one setting; keep one of them`, {
    hint: `${alias} is the dashboard vendor's name for ${key}; both are read, with the same meaning.`,
    details: { where },
  });
}
