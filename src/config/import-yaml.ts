import { Document } from 'yaml';
import { publicUrl } from '../public-url.js';
import type { LiveIgnore, LiveState, Site } from '../types.js';
import { LIMITS } from './limits.js';
import { DESIRED_STATE_SCHEMA } from './schema.js';

/**
 * How the rest of svc-gitops reads what import writes, passed in so config/ stays a leaf (the
 * CLI passes plan/select.ts's normaliseAddress and render/safe-text.ts's safeText).
 */
export interface ImportReaders {
  /** A site address as the planner compares it: a site is named by it only where it selects that site alone. */
  addressOf: (url: string) => string;
  /** Dashboard text made safe for a terminal, for the header's lists. */
  safe: (text: string) => string;
}

export interface ImportOptions {
  /** Shown in the header; defaults to the live state's dashboard URL (credentials never shown). */
  dashboardUrl?: string;
  /** The `$schema` reference for editors; defaults to the newest published schema. */
  schemaRef?: string;
  /** Largest file of the split form; defaults to `LIMITS.maxFileBytes` (tests pass less). */
  maxFileBytes?: number;
}

/**
 * The newest published schema: a caller that knows its release passes that release's address
 * (the CLI does), since a reference a committed file holds should not move under it.
 */
const DEFAULT_SCHEMA_REF = 'https://cdn.jsdelivr.net/npm/svc-gitops/schemas/svc-gitops.schema.json';
const SITE_ITEM = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/;

/** The slugs the format can hold, from the schema itself (its single description). */
const SLUG = (() => {
  const defs = DESIRED_STATE_SCHEMA.$defs as Record<string, { pattern: string }>;
  return {
    plugin: new RegExp(defs.pluginSlug?.pattern ?? '$^'),
    theme: new RegExp(defs.themeSlug?.pattern ?? '$^'),
  };
})();

/** The imported YAML and what it did with the live ignores, for the command's summary line. */
export interface ImportResult {
  yaml: string;
  /**
   * The same desired state as a directory of files, each within `LIMITS.maxFileBytes`:
   * `00-svc-gitops.yaml` (header and settings), then `10-ignores-NNN.yaml` with the rules.
   */
  files: Array<{ name: string; yaml: string }>;
  /** Per-site all-version ignores the rules adopt (one per site and item). */
  adopted: number;
  /** Per-site ignores left unmanaged: specific versions, or slugs the format cannot hold. */
  unmanaged: number;
  /** The YAML's size in bytes; beyond `LIMITS.maxFileBytes` no command would read it. */
  bytes: number;
  /** Whether a desired-state file may be this large (`LIMITS.maxFileBytes`). */
  fits: boolean;
}

/**
 * Desired-state YAML that adopts the live per-site ignore lists, so `import` then `plan` shows no
 * ignore changes. Sites with identical ignore sets share one rule; rules are ordered by their
 * lowest site ID and everything inside them is sorted, one list item per line, so the same live
 * state gives the same bytes and a later change to one site is a one-line diff.
 * Only per-site ignores are adopted: global ignores and site-wide flags are not changeable through
 * the interface, and version-specific ignores stay unmanaged (listed in the header), since
 * adopting them as all-version ignores would make the next plan widen them; so do slugs the
 * format cannot hold (the dashboard reports any folder name). A site is named by its address
 * only where that address selects exactly this site, by the planner's own matching; else by ID.
 * A rule whose sites are exactly one dashboard tag's is written `tag:<name>` (tagsBySites).
 */
export function importDesiredState(
  live: LiveState,
  readers: ImportReaders,
  o: ImportOptions = {},
): ImportResult {
  const { safe } = readers;
  const names = siteNames(live.sites, readers.addressOf);
  const bySite = new Map<number, LiveIgnore[]>();
  const partial: string[] = [];
  const unwritable: string[] = [];
  for (const ignore of live.ignores) {
    if (ignore.origin !== 'site') continue;
    // The header quotes the dashboard: no control character of its reaches a terminal.
    const where = `${names.get(ignore.siteId) ?? ignore.siteId} ${safe(ignore.slug)}`;
    if (ignore.versions !== 'all') {
      // Each version once, sorted: the dashboard's order must not change the bytes.
      partial.push(`${where} ${safe(sortedUnique(ignore.versions).join(','))}`);
      continue;
    }
    if (ignore.kind !== 'core' && !SLUG[ignore.kind].test(ignore.slug)) {
      unwritable.push(where);
      continue;
    }
    const ofSite = bySite.get(ignore.siteId);
    if (ofSite) ofSite.push(ignore);
    else bySite.set(ignore.siteId, [ignore]);
  }
  const sets = new Map<string, { siteIds: number[]; core: boolean; plugins: string[]; themes: string[] }>();
  let adopted = 0;
  for (const siteId of [...bySite.keys()].sort((a, b) => a - b)) {
    const ignores = bySite.get(siteId) ?? [];
    const core = ignores.some((i) => i.kind === 'core');
    const plugins = sortedUnique(ignores.filter((i) => i.kind === 'plugin').map((i) => i.slug));
    const themes = sortedUnique(ignores.filter((i) => i.kind === 'theme').map((i) => i.slug));
    adopted += (core ? 1 : 0) + plugins.length + themes.length;
    const key = JSON.stringify([core, plugins, themes]);
    const set = sets.get(key) ?? { siteIds: [], core, plugins, themes };
    set.siteIds.push(siteId);
    sets.set(key, set);
  }
  const tagOf = tagsBySites(live);
  const rules = [...sets.values()].map((s) => {
    const tag = tagOf.get(s.siteIds.join(','));
    const rule: Record<string, unknown> = {
      sites: tag === undefined ? s.siteIds.map((id) => names.get(id) ?? id) : [`tag:${tag}`],
    };
    if (s.core) rule.core = true;
    if (s.plugins.length > 0) rule.plugins = s.plugins;
    if (s.themes.length > 0) rule.themes = s.themes;
    return rule;
  });
  const comment = header(live, o, partial.sort(), unwritable.sort(), safe);
  const doc = new Document({ version: 1, ignores: { unmanaged: 'report', rules } });
  doc.commentBefore = comment;
  const yaml = doc.toString(YAML_OPTIONS);
  const bytes = Buffer.byteLength(yaml);
  return {
    yaml,
    files: splitFiles(comment, rules, o.maxFileBytes ?? LIMITS.maxFileBytes),
    adopted,
    unmanaged: partial.length + unwritable.length,
    bytes,
    fits: bytes <= LIMITS.maxFileBytes,
  };
}

const YAML_OPTIONS = { lineWidth: 0 } as const;

/**
 * The desired state as files a directory config reads (rules of all files add up): the header
 * and `ignores.unmanaged` first, then the rules in order, as many per file as fit.
 */
function splitFiles(
  comment: string,
  rules: Array<Record<string, unknown>>,
  maxBytes: number,
): Array<{ name: string; yaml: string }> {
  // Room for a file's own head; a rule's size is measured alone and allowed a quarter more for
  // the deeper indentation it gets under `ignores.rules`.
  const room = maxBytes - 256;
  const first = new Document({ version: 1, ignores: { unmanaged: 'report' } });
  first.commentBefore = comment;
  const files = [{ name: '00-svc-gitops.yaml', yaml: first.toString(YAML_OPTIONS) }];
  let chunk: Array<Record<string, unknown>> = [];
  let size = 0;
  const flush = () => {
    if (chunk.length === 0) return;
    const doc = new Document({ version: 1, ignores: { rules: chunk } });
    doc.commentBefore = ' Ignore rules adopted by `svc-gitops import` (see 00-svc-gitops.yaml).';
    files.push({
      name: `10-ignores-${String(files.length).padStart(3, '0')}.yaml`,
      yaml: doc.toString(YAML_OPTIONS),
    });
    chunk = [];
    size = 0;
  };
  for (const rule of rules) {
    const bytes = Buffer.byteLength(new Document([rule]).toString(YAML_OPTIONS)) * 1.25;
    if (size + bytes > room) flush();
    chunk.push(rule);
    size += bytes;
  }
  flush();
  return files;
}

function header(
  live: LiveState,
  o: ImportOptions,
  partial: string[],
  unwritable: string[],
  safe: ImportReaders['safe'],
): string {
  const lines = [
    ` yaml-language-server: $schema=${o.schemaRef ?? DEFAULT_SCHEMA_REF}`,
    ` Imported from ${publicUrl(o.dashboardUrl ?? live.dashboardUrl)} by \`svc-gitops import\`.`,
    ' It adopts the live per-site ignore lists; add update policies, holds and waves as needed.',
    ' Global ignores and site-wide ignore flags are set in the dashboard and are not listed here.',
  ];
  if (partial.length > 0) {
    // The format ignores all versions; adopting these would widen them, so they stay unmanaged
    // (reported by the plan, never changed, because `unmanaged: report`).
    lines.push(' Left unmanaged (ignores of specific versions):', ...partial.map((entry) => `   ${entry}`));
  }
  if (unwritable.length > 0) {
    lines.push(
      ' Left unmanaged (slugs this format cannot hold):',
      ...unwritable.map((entry) => `   ${entry}`),
    );
  }
  const unreadable = [...live.unreadable].sort((a, b) => a.siteId - b.siteId);
  if (unreadable.length > 0) {
    lines.push(' Not imported (unreadable):', ...unreadable.map((u) => `   ${u.siteId} (${safe(u.code)})`));
  }
  return lines.join('\n');
}

/**
 * A site's name in the rules: its address as the planner compares addresses (no scheme, no
 * `www.`), when that is a plain domain the format accepts, names itself again, and no other site
 * shares it (`www.shop.test` and `shop.test` are one address to the planner); else its ID.
 */
function siteNames(
  sites: readonly Site[],
  addressOf: ImportReaders['addressOf'],
): Map<number, string | number> {
  const count = new Map<string, number>();
  for (const site of sites) {
    const address = addressOf(site.url);
    count.set(address, (count.get(address) ?? 0) + 1);
  }
  const names = new Map<number, string | number>();
  for (const site of sites) {
    const address = addressOf(site.url);
    const usable =
      count.get(address) === 1 &&
      SITE_ITEM.test(address) &&
      !/^[0-9]+$/.test(address) && // digits alone are a site ID
      address !== 'all' &&
      addressOf(address) === address;
    names.set(site.id, usable ? address : site.id);
  }
  return names;
}

/**
 * The dashboard's tags (when the live state has them) by their sites' IDs, ascending and joined
 * with `,`: a rule whose sites are exactly a tag's is written as `tag:<name>`, which the planner
 * resolves to the same sites. Of two tags on the same sites the first by name; a name the
 * format cannot hold (blank at either end) is not used.
 */
function tagsBySites(live: LiveState): Map<string, string> {
  const byTag = new Map<string, number[]>();
  if (!live.groups?.tags) return new Map();
  for (const site of [...live.sites].sort((a, b) => a.id - b.id))
    for (const tag of site.tags ?? []) {
      const ids = byTag.get(tag);
      if (ids) ids.push(site.id);
      else byTag.set(tag, [site.id]);
    }
  const bySites = new Map<string, string>();
  for (const tag of [...byTag.keys()].sort()) {
    const key = [...new Set(byTag.get(tag))].join(',');
    if (/^\S(.*\S)?$/.test(tag) && !bySites.has(key)) bySites.set(key, tag);
  }
  return bySites;
}

function sortedUnique(values: string[]): string[] {
  return [...new Set(values)].sort();
}
