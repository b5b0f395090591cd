/**
 * A plan's actions as rows by item: one row per operation and item (kind, slug), whatever the
 * versions, waves and sites, so a fleet's 60,000 actions over 19 items are about 19 rows. A row
 * carries the versions as ranges (`6.8.1–6.8.2 → 6.8.3`), the number of sites, the waves and
 * the rules or policies (their reasons cite file:line) that made its actions.
 */
import type { Action, ActionOp, ItemKind, Risk } from '../types.js';

export interface ItemRow {
  op: ActionOp;
  kind: ItemKind;
  slug: string;
  name: string;
  /** The highest risk of its actions. */
  risk: Risk;
  /** Distinct sites, ascending. */
  siteIds: number[];
  /** The addresses of the first FIRST_ROW_SITES of `siteIds`. */
  firstUrls: string[];
  /** Distinct versions moved from and to, in version order (updates only). */
  from: string[];
  to: string[];
  /** Distinct waves, in order of first appearance. */
  waves: string[];
  /** Distinct reasons, in order of first appearance. */
  reasons: string[];
  actions: number;
}

/** Sites named per row; the rest are counted. */
export const FIRST_ROW_SITES = 2;

const OP_ORDER: Record<ActionOp, number> = { update: 0, ignore: 1, unignore: 2 };
const RISK_ORDER: Record<Risk, number> = { high: 0, medium: 1, low: 2 };
const KIND_ORDER: Record<ItemKind, number> = { core: 0, plugin: 1, theme: 2, translation: 3 };

/** Rows in a total order: updates, ignores, unignores; high risk first; most sites first; item. */
export function itemRows(actions: readonly Action[]): ItemRow[] {
  const rows = new Map<
    string,
    ItemRow & {
      sites: Set<number>;
      fromSet: Set<string>;
      toSet: Set<string>;
      first: Array<[number, string]>;
    }
  >();
  const waves = new Map<ItemRow, Set<string>>();
  const reasons = new Map<ItemRow, Set<string>>();
  for (const action of actions) {
    const key = `${action.op}\u0000${action.kind}\u0000${action.slug}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        op: action.op,
        kind: action.kind,
        slug: action.slug,
        name: action.name,
        risk: action.risk,
        siteIds: [],
        firstUrls: [],
        from: [],
        to: [],
        waves: [],
        reasons: [],
        actions: 0,
        sites: new Set(),
        fromSet: new Set(),
        toSet: new Set(),
        first: [],
      };
      rows.set(key, row);
      waves.set(row, new Set());
      reasons.set(row, new Set());
    }
    row.actions += 1;
    if (RISK_ORDER[action.risk] < RISK_ORDER[row.risk]) row.risk = action.risk;
    if (!row.sites.has(action.site_id)) {
      row.sites.add(action.site_id);
      keepFirst(row.first, action.site_id, action.site_url);
    }
    // An empty version is an unreported one (translations have no target version).
    if (action.from) row.fromSet.add(action.from);
    if (action.to) row.toSet.add(action.to);
    if (action.wave !== undefined) waves.get(row)!.add(action.wave);
    reasons.get(row)!.add(action.reason);
  }
  const out: ItemRow[] = [];
  for (const row of rows.values()) {
    const { sites, fromSet, toSet, first, ...rest } = row;
    out.push({
      ...rest,
      siteIds: [...sites].sort((a, b) => a - b),
      firstUrls: first.map(([, url]) => url),
      from: [...fromSet].sort(compareVersions),
      to: [...toSet].sort(compareVersions),
      waves: [...waves.get(row)!],
      reasons: [...reasons.get(row)!],
    });
  }
  return out.sort(compareRows);
}

export function compareRows(a: ItemRow, b: ItemRow): number {
  return (
    OP_ORDER[a.op] - OP_ORDER[b.op] ||
    RISK_ORDER[a.risk] - RISK_ORDER[b.risk] ||
    b.siteIds.length - a.siteIds.length ||
    KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
    compareText(a.slug, b.slug)
  );
}

/** Keeps the FIRST_ROW_SITES lowest site ids seen so far, ascending, with their addresses. */
function keepFirst(first: Array<[number, string]>, id: number, url: string): void {
  if (first.length === FIRST_ROW_SITES && id > first[first.length - 1]![0]) return;
  first.push([id, url]);
  first.sort((a, b) => a[0] - b[0]);
  if (first.length > FIRST_ROW_SITES) first.pop();
}

/** `6.8.1`, or `6.8.1–6.8.2` for the lowest and highest of several versions. */
export function versionRange(versions: readonly string[]): string {
  if (versions.length === 0) return '';
  if (versions.length === 1) return versions[0]!;
  return `${versions[0]}–${versions[versions.length - 1]}`;
}

/** `6.8.1–6.8.2 → 6.8.3` for an update row; empty for ignore-list rows. */
export function versionMove(row: Pick<ItemRow, 'op' | 'kind' | 'from' | 'to'>): string {
  if (row.op !== 'update') return '';
  const to =
    row.to.length > 0
      ? versionRange(row.to)
      : row.kind === 'translation'
        ? '(latest translation)'
        : '(unreported version)';
  return `${versionRange(row.from)} → ${to}`;
}

/** The file:line places the row's reasons cite (`svc-gitops.yaml:12`), distinct, in order. */
export function citedPlaces(reasons: readonly string[]): string[] {
  const places = new Set<string>();
  for (const reason of reasons)
    for (const match of reason.matchAll(/\(([^()\s]+:\d+)\)/g)) places.add(match[1]!);
  return [...places];
}

/** Dotted versions by their numbers (`6.10` after `6.9`), then as text. */
export function compareVersions(a: string, b: string): number {
  const left = a.split(/[.-]/);
  const right = b.split(/[.-]/);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const x = left[i] ?? '';
    const y = right[i] ?? '';
    if (x === y) continue;
    const nx = /^\d+$/.test(x) ? Number(x) : Number.NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : Number.NaN;
    if (!Number.isNaN(nx) && !Number.isNaN(ny)) return nx - ny;
    return compareText(x, y);
  }
  return compareText(a, b);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
