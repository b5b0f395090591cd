import { displayName } from './fleet-names.js';
import { emptySite, type Fleet, type FleetItem, type FleetSite } from './fleet-types.js';
import { createRandom, type Random } from './random.js';

export interface GenerateFleetOptions {
  sites: number;
  /** Installed plugins per site (default 8). */
  pluginsPerSite?: number;
  /** Visible pending updates per site on average (core, plugins, themes, translations). */
  pendingPerSite: number;
  /** Ignored items with a pending update per site (hidden from the pending list), default 0. */
  ignoredPerSite?: number;
  /**
   * Percent of the sites (0-100, default 0) with a site-wide "ignore every update of this kind"
   * flag, spread evenly; the flag's kind goes round plugins, themes, core.
   */
  flaggedPercent?: number;
  seed: number;
}

const REAL_PLUGINS = [
  'akismet/akismet.php',
  'woocommerce/woocommerce.php',
  'wordpress-seo/wp-seo.php',
  'contact-form-7/wp-contact-form-7.php',
  'elementor/elementor.php',
  'jetpack/jetpack.php',
  'classic-editor/classic-editor.php',
  'wordfence/wordfence.php',
];
const THEMES = ['twentytwentyfour', 'twentytwentyfive', 'astra'];
const LANGUAGES = ['de_DE', 'fr_FR', 'es_ES', 'nl_NL'];

function pluginSlug(index: number): string {
  return REAL_PLUGINS[index] ?? `plugin-${index}/plugin-${index}.php`;
}

function version(random: Random): string {
  return `${random.int(1, 9)}.${random.int(0, 9)}.${random.int(0, 9)}`;
}

/** A patch (60 %), minor (30 %) or major (10 %) step up from `from`. */
function nextVersion(random: Random, from: string): string {
  const [major = 1, minor = 0, patch = 0] = from.split('.').map(Number);
  const roll = random.next();
  if (roll < 0.6) return `${major}.${minor}.${patch + 1}`;
  if (roll < 0.9) return `${major}.${minor + 1}.0`;
  return `${major + 1}.0.0`;
}

/**
 * A deterministic fleet: the same options give the same fleet, byte for byte. Each site gets
 * between 0 and 2×`pendingPerSite` visible pending updates (so the average is
 * `pendingPerSite`), plus `ignoredPerSite` pending plugin updates hidden by per-site ignores,
 * and on `flaggedPercent` of the sites a site-wide ignore flag. Tags and clients follow the
 * site's number (assignGroups).
 */
export function generateFleet(options: GenerateFleetOptions): Fleet {
  const random = createRandom(options.seed);
  const pluginsPerSite = Math.max(options.pluginsPerSite ?? 8, 1);
  const ignoredPerSite = options.ignoredPerSite ?? 0;
  const flaggedPercent = options.flaggedPercent ?? 0;
  const flagKinds = ['plugins', 'themes', 'core'] as const;
  let flagged = 0;
  const sites: FleetSite[] = [];
  for (let n = 1; n <= options.sites; n++) {
    const url = `https://site-${String(n).padStart(5, '0')}.fleet.test/`;
    const site = emptySite(n, url, url.slice(8, -1));
    const pool = Math.max(pluginsPerSite, REAL_PLUGINS.length);
    const start = random.int(0, pool - 1);
    const plugins: FleetItem[] = [];
    for (let i = 0; i < pluginsPerSite; i++) {
      const slug = pluginSlug((start + i) % Math.max(pool, pluginsPerSite));
      plugins.push({ slug, name: displayName(slug), version: version(random), update: null });
    }
    site.plugins = plugins;
    site.themes = THEMES.map((slug) => ({
      slug,
      name: displayName(slug),
      version: version(random),
      update: null,
    }));
    const pending = random.int(0, Math.round(2 * options.pendingPerSite));
    hidePending(random, site, ignoredPerSite);
    addPending(random, site, pending);
    // Without random draws, so fleets generated without flags stay byte for byte the same.
    if ((n * flaggedPercent) % 100 < flaggedPercent) site.flags[flagKinds[flagged++ % 3]!] = true;
    assignGroups(site, n);
    sites.push(site);
  }
  return {
    sites,
    users: [],
    apiKeys: [],
    globalIgnores: { core: null, plugins: [], themes: [] },
    records: { tags: TAGS.map((name, i) => ({ id: i + 1, name })), clients: clients(), costs: [] },
  };
}

/** Tags: `canary` on every 50th site (from the first), `production` on the others, `eu` on every third. */
const TAGS = ['canary', 'production', 'eu'];
const CLIENTS = 40;

function clients(): { id: number; name: string }[] {
  return Array.from({ length: CLIENTS }, (_, i) => ({
    id: i + 1,
    name: `client-${String(i + 1).padStart(2, '0')}`,
  }));
}

/** Tags and a client by the site's number alone (no random draw: the rest of the fleet is as before). */
function assignGroups(site: FleetSite, n: number): void {
  site.tagIds = [n % 50 === 1 ? 1 : 2, ...(n % 3 === 0 ? [3] : [])];
  site.clientId = 1 + ((n - 1) % CLIENTS);
}

function addPending(random: Random, site: FleetSite, count: number): void {
  const candidates = site.plugins.length + site.themes.length;
  for (let made = 0; made < count; made++) {
    const roll = random.next();
    if (roll < 0.08 && !site.core.new) {
      site.core = { current: '6.8.1', new: '6.8.3' };
      continue;
    }
    const free = [...site.plugins, ...site.themes].filter((item) => !item.update);
    if (roll < 0.18 || free.length === 0 || candidates === 0) {
      const slug =
        random.next() < 0.5 ? 'default' : (random.pick(site.plugins).slug.split('/')[0] ?? 'default');
      // One pending translation per (slug, language), as a site reports them.
      const languages = LANGUAGES.filter(
        (l) => !site.translations.some((t) => t.slug === slug && t.language === l),
      );
      if (languages.length > 0) {
        site.translations.push({
          slug,
          name: displayName(slug),
          language: random.pick(languages),
          version: version(random),
        });
        continue;
      }
      if (free.length === 0) continue;
    }
    const item = random.pick(free);
    item.update = nextVersion(random, item.version);
  }
}

/** Gives `count` more plugins a pending update and ignores them on the site (all versions). */
function hidePending(random: Random, site: FleetSite, count: number): void {
  const free = site.plugins.filter((item) => !item.update);
  for (let i = 0; i < count && free.length > 0; i++) {
    const [item] = free.splice(random.int(0, free.length - 1), 1);
    if (!item) break;
    item.update = nextVersion(random, item.version);
    site.ignores.plugins.push({ slug: item.slug, name: item.slug, versions: 'all' });
  }
}
