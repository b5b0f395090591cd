/**
 * The rollout state file's quarantine records: one line per quarantined target version,
 * `{"quarantine":"plugin akismet/akismet.php 5.3.7","at":…,"wave":…,"sites":[…]}`. A version
 * recorded twice (a union merge) is read on the safe side: still quarantined, every site of
 * either record, the earlier time, and adopted by the desired state only when both records say
 * so (the next plan adopts it again if the desired state holds it).
 */
import type { QuarantineRecord, UnhealthySite } from '../types.js';

export const QUARANTINE_KEYS = new Set(['quarantine', 'at', 'wave', 'sites', 'adopted_at']);

export interface QuarantineReader {
  time(value: unknown, what: string): string;
  site(value: unknown): UnhealthySite;
  bad(what: string): never;
}

export function readQuarantine(record: Record<string, unknown>, read: QuarantineReader): QuarantineRecord {
  const out: QuarantineRecord = { at: read.time(record.at, 'at'), sites: [] };
  if (record.wave !== undefined) {
    if (typeof record.wave !== 'string') read.bad("a quarantine's wave must be a string");
    out.wave = record.wave;
  }
  if (!Array.isArray(record.sites)) read.bad("a quarantine's sites must be a list");
  for (const site of record.sites) out.sites.push(read.site(site));
  if (record.adopted_at !== undefined) out.adopted_at = read.time(record.adopted_at, 'adopted_at');
  return out;
}

export function mergeQuarantines(a: QuarantineRecord, b: QuarantineRecord): QuarantineRecord {
  const first = Date.parse(a.at) <= Date.parse(b.at) ? a : b;
  const merged: QuarantineRecord = { at: first.at, sites: [...a.sites] };
  const wave = first.wave ?? (first === a ? b.wave : a.wave);
  if (wave !== undefined) merged.wave = wave;
  const ids = new Set(a.sites.map((site) => site.site_id));
  for (const site of b.sites) if (!ids.has(site.site_id)) merged.sites.push(site);
  merged.sites.sort((x, y) => x.site_id - y.site_id);
  if (a.adopted_at !== undefined && b.adopted_at !== undefined)
    merged.adopted_at = Date.parse(a.adopted_at) >= Date.parse(b.adopted_at) ? a.adopted_at : b.adopted_at;
  return merged;
}

export function writeQuarantine(key: string, record: QuarantineRecord): string {
  const line: Record<string, unknown> = { quarantine: key, at: record.at };
  if (record.adopted_at !== undefined) line.adopted_at = record.adopted_at;
  if (record.wave !== undefined) line.wave = record.wave;
  line.sites = record.sites;
  return JSON.stringify(line);
}
