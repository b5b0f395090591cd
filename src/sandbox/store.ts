import {
  type IgnoredEntry,
  ignoredEntries,
  type KindName,
  type UpdateEntry,
  type UpdateSummary,
  type VisibleUpdates,
  visibleUpdates,
} from './entries.js';
import type { Fleet, FleetSite, GlobalIgnores } from './fleet-types.js';

/**
 * The sandbox's state with its indexes. Invariants:
 * - `fleet.sites` is kept in database order (ascending id); `byId` and `byDomain` index it;
 * - every change goes through `changeSite`/`changeGlobal`/`addSite`/`removeSite`, which drop the
 *   affected caches and call `onChange` (persistence), so readers never see stale entries;
 * - visible (ignore-filtered) entries are computed lazily per site and flattened lazily per
 *   `types` selection, so paging a 10,000-site fleet never rescans it per page.
 */
export class SandboxStore {
  readonly fleet: Fleet;
  private readonly byId = new Map<number, FleetSite>();
  private readonly byDomain = new Map<string, FleetSite>();
  private readonly visibleCache = new Map<number, VisibleUpdates>();
  private readonly flatCache = new Map<string, FlatList>();
  private readonly ignoredCache = new Map<string, IgnoredEntry[]>();
  /** Serialised entries; entries are replaced, never mutated, when their site changes. */
  private readonly entryJson = new WeakMap<UpdateEntry, string>();
  private readonly onChange: () => void;

  constructor(fleet: Fleet, onChange: () => void = () => {}) {
    this.fleet = fleet;
    this.fleet.sites.sort((a, b) => a.id - b.id);
    for (const site of fleet.sites) this.index(site);
    this.onChange = onChange;
  }

  get global(): GlobalIgnores {
    return this.fleet.globalIgnores;
  }

  sites(): readonly FleetSite[] {
    return this.fleet.sites;
  }

  site(id: number): FleetSite | undefined {
    return this.byId.get(id);
  }

  /**
   * Numeric → by ID; otherwise URL-decoded and matched on the domain with or without scheme,
   * `www.` and trailing slash (a bare domain works; a path cannot).
   */
  resolve(idOrDomain: string | number): FleetSite | undefined {
    if (typeof idOrDomain === 'number') return this.byId.get(idOrDomain);
    const text = idOrDomain.trim();
    if (/^\d+$/.test(text)) return this.byId.get(Number(text));
    let decoded = text;
    try {
      decoded = decodeURIComponent(text);
    } catch {
      // Malformed escapes: match the raw text.
    }
    return this.byDomain.get(domainKey(decoded));
  }

  visible(site: FleetSite): VisibleUpdates {
    let cached = this.visibleCache.get(site.id);
    if (!cached) {
      cached = visibleUpdates(site, this.fleet.globalIgnores);
      this.visibleCache.set(site.id, cached);
    }
    return cached;
  }

  /** Every visible entry of the given kinds over the whole fleet, in database order (cached). */
  flat(kinds: readonly KindName[]): FlatList {
    const key = kinds.join(',');
    let cached = this.flatCache.get(key);
    if (!cached) {
      const entries: UpdateEntry[] = [];
      const summary: UpdateSummary = { core: 0, plugins: 0, themes: 0, translations: 0, total: 0 };
      for (const site of this.fleet.sites) {
        const visible = this.visible(site);
        for (const kind of kinds) {
          for (const entry of visible[kind]) entries.push(entry);
          summary[kind] += visible[kind].length;
        }
      }
      summary.total = entries.length;
      cached = { entries, summary, pages: new Map() };
      this.flatCache.set(key, cached);
    }
    return cached;
  }

  /**
   * Every ignored entry of the given kinds over the whole fleet in database order (cached), so a
   * page of the listing costs O(page), not a rebuild of the listing.
   */
  ignoredFlat(kinds: ReadonlySet<string>): readonly IgnoredEntry[] {
    const key = [...kinds].sort().join(',');
    let cached = this.ignoredCache.get(key);
    if (!cached) {
      cached = [];
      for (const site of this.fleet.sites) {
        for (const entry of ignoredEntries(site, this.fleet.globalIgnores, kinds)) cached.push(entry);
      }
      this.ignoredCache.set(key, cached);
    }
    return cached;
  }

  /** `JSON.stringify(entry)`, cached: paging re-sends the same entries many times. */
  json(entry: UpdateEntry): string {
    let text = this.entryJson.get(entry);
    if (text === undefined) {
      text = JSON.stringify(entry);
      this.entryJson.set(entry, text);
    }
    return text;
  }

  changeSite<T>(site: FleetSite, change: (site: FleetSite) => T): T {
    const result = change(site);
    this.visibleCache.delete(site.id);
    this.dropListings();
    this.onChange();
    return result;
  }

  /** Global ignores affect every site: all caches go. */
  changeGlobal<T>(change: (global: GlobalIgnores) => T): T {
    const result = change(this.fleet.globalIgnores);
    this.visibleCache.clear();
    this.dropListings();
    this.onChange();
    return result;
  }

  addSite(site: FleetSite): void {
    this.fleet.sites.push(site);
    this.fleet.sites.sort((a, b) => a.id - b.id);
    this.index(site);
    this.dropListings();
    this.onChange();
  }

  removeSite(site: FleetSite): void {
    this.fleet.sites = this.fleet.sites.filter((s) => s.id !== site.id);
    this.byId.delete(site.id);
    const key = domainKey(site.url);
    if (this.byDomain.get(key) === site) {
      this.byDomain.delete(key);
      const next = this.fleet.sites.find((s) => domainKey(s.url) === key);
      if (next) this.byDomain.set(key, next);
    }
    this.visibleCache.delete(site.id);
    this.dropListings();
    this.onChange();
  }

  /** A change outside sites and ignores (batch records): persist only. */
  touch(): void {
    this.onChange();
  }

  /** Gives every site a new URL (site-pages.ts: pages served by the sandbox itself). */
  relocate(urlOf: (site: FleetSite) => string): void {
    this.byDomain.clear();
    for (const site of this.fleet.sites) {
      site.url = urlOf(site);
      this.index(site);
    }
    this.visibleCache.clear();
    this.dropListings();
    this.onChange();
  }

  nextSiteId(): number {
    return (this.fleet.sites.at(-1)?.id ?? 0) + 1;
  }

  private dropListings(): void {
    this.flatCache.clear();
    this.ignoredCache.clear();
  }

  /** A domain two sites share (a site added twice) resolves to the lower ID, the one listed first. */
  private index(site: FleetSite): void {
    this.byId.set(site.id, site);
    const key = domainKey(site.url);
    const holder = this.byDomain.get(key);
    if (holder === undefined || holder.id > site.id) this.byDomain.set(key, site);
  }
}

export interface FlatList {
  entries: UpdateEntry[];
  summary: UpdateSummary;
  /** Serialised response pages of this list, keyed by the caller (dropped with the list). */
  pages: Map<string, Buffer>;
}

/** `https://www.Shop.example.test/` and `shop.example.test` share one key. */
export function domainKey(urlOrDomain: string): string {
  return urlOrDomain
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .replace(/^www\./, '')
    .replace(/\/+$/, '');
}
