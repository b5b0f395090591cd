/**
 * Rows of a status group built up one site at a time: per key (item and why), the distinct
 * sites and versions, so a fleet's 60,000 facts over a few items are a few rows. A row names its
 * first sites by lowest site id; the rest are counted.
 */
import type { ItemKind, StatusGroup, StatusRow, StatusState } from '../types.js';
import { compareVersions } from './versions.js';

/** Sites a row names; the rest are counted. */
export const STATUS_FIRST_SITES = 3;

export interface RowSeed {
  kind: ItemKind;
  slug: string;
  name: string;
  detail: string;
  until?: string | undefined;
  when?: string | undefined;
  /** A fixed version text (a quarantined version); else the versions added are shown as ranges. */
  versions?: string | undefined;
}

interface Building extends RowSeed {
  sites: Set<number>;
  /** Sites counted without an id (a quarantine's held sites no note lists). */
  uncounted: number;
  urls: Map<number, string>;
  from: Set<string>;
  to: Set<string>;
}

export class GroupBuilder {
  private readonly rows = new Map<string, Building>();
  private readonly sites = new Set<number>();
  private extraSites = 0;

  constructor(
    readonly state: StatusState,
    private readonly urlOf: (siteId: number) => string | undefined,
  ) {}

  /** The row of `seed`'s item and detail, created on first use. */
  row(seed: RowSeed): Building {
    const key = `${seed.kind}\u0000${seed.slug}\u0000${seed.detail}\u0000${seed.versions ?? ''}`;
    let row = this.rows.get(key);
    if (!row) {
      row = { ...seed, sites: new Set(), uncounted: 0, urls: new Map(), from: new Set(), to: new Set() };
      this.rows.set(key, row);
    }
    return row;
  }

  addSite(row: Building, siteId: number, url?: string): void {
    row.sites.add(siteId);
    this.sites.add(siteId);
    if (url !== undefined && !row.urls.has(siteId)) row.urls.set(siteId, url);
  }

  addUncounted(row: Building, count: number): void {
    row.uncounted += count;
    this.extraSites += count;
  }

  static addMove(row: Building, from: string | undefined, to: string | undefined): void {
    if (from !== undefined && from !== '') row.from.add(from);
    if (to !== undefined && to !== '') row.to.add(to);
  }

  /** Rows with most sites first, then by item and detail. */
  build(): StatusGroup {
    const rows = [...this.rows.values()].map((row) => this.finish(row));
    rows.sort(
      (a, b) =>
        b.sites - a.sites ||
        compareText(a.kind, b.kind) ||
        compareText(a.slug, b.slug) ||
        compareText(a.detail, b.detail),
    );
    const items = new Set(rows.map((row) => `${row.kind}\u0000${row.slug}`)).size;
    return { state: this.state, items, sites: this.sites.size + this.extraSites, rows };
  }

  private finish(row: Building): StatusRow {
    const first = firstIds(row.sites, STATUS_FIRST_SITES);
    const out: StatusRow = {
      kind: row.kind,
      slug: row.slug,
      name: row.name,
      versions: row.versions ?? moveText(row.from, row.to),
      detail: row.detail,
      sites: row.sites.size + row.uncounted,
      first_sites: first.map((id) => row.urls.get(id) ?? this.urlOf(id) ?? `site ${id}`),
    };
    if (row.until !== undefined) out.until = row.until;
    if (row.when !== undefined) out.when = row.when;
    return out;
  }
}

/** `6.8.1–6.8.2 → 6.8.3`; empty when no version is known. */
function moveText(from: ReadonlySet<string>, to: ReadonlySet<string>): string {
  if (from.size === 0 && to.size === 0) return '';
  return `${range(from)} → ${range(to)}`;
}

function range(versions: ReadonlySet<string>): string {
  if (versions.size === 0) return '?';
  const sorted = [...versions].sort(compareVersions);
  return sorted.length === 1 ? sorted[0]! : `${sorted[0]}–${sorted[sorted.length - 1]}`;
}

/** The `count` lowest ids, ascending, without sorting the whole set. */
function firstIds(ids: ReadonlySet<number>, count: number): number[] {
  const first: number[] = [];
  for (const id of ids) {
    if (first.length === count && id >= first[count - 1]!) continue;
    first.push(id);
    first.sort((a, b) => a - b);
    if (first.length > count) first.pop();
  }
  return first;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
