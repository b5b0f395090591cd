/**
 * The status of a dashboard, derived from a plan made now (pure): what will run now, what soaks
 * until when, what waits for a window, what is held and why, what is quarantined, what the last
 * apply failed, and what is vulnerable. Everything it says is already in the plan, the live read
 * and the history; nothing is judged again here.
 *
 * The plan says why an update waits in its notes' messages (one per fact, shared by its sites);
 * the planner writes them in rollout-gates.ts and updates.ts, and `classify` below reads their
 * fixed phrases. test/plan/status.test.ts plans each gate for real and checks each lands in its
 * group, so a reworded message fails there, not silently here.
 */
import { compileWindow } from '../schedule/index.js';
import type {
  DesiredState,
  ItemKind,
  LiveState,
  Plan,
  PlanNote,
  PlanSecurity,
  StatusReport,
  StatusState,
} from '../types.js';
import { describeItem } from './reasons.js';
import { GroupBuilder } from './status-rows.js';

/** The fields of an apply history record the status reads (apply's HistoryRecord has them). */
export interface StatusHistoryRecord {
  time: string;
  plan_id: string;
  dashboard: string;
  site_id: number;
  site_url: string;
  kind: ItemKind;
  slug: string;
  name: string;
  from?: string;
  to?: string;
  outcome: string;
  code?: string;
}

export interface StatusInput {
  plan: Plan;
  live: Pick<LiveState, 'sites' | 'pending'>;
  /** For the zone a soak's end is shown in (its policy's window zone). */
  desired?: Pick<DesiredState, 'policies'>;
  /** The apply history; only this dashboard's last run is read. */
  history?: readonly StatusHistoryRecord[];
}

export const STATUS_STATES: readonly StatusState[] = [
  'pending',
  'soaking',
  'window',
  'held',
  'quarantined',
  'failed',
  'vulnerable',
];

export function deriveStatus(input: StatusInput): StatusReport {
  const { plan, live } = input;
  const urls = new Map(live.sites.map((site) => [site.id, site.url]));
  const urlOf = (id: number) => urls.get(id);
  const groups = new Map(STATUS_STATES.map((state) => [state, new GroupBuilder(state, urlOf)]));
  const group = (state: StatusState) => groups.get(state)!;
  const moves = pendingIndex(live.pending);
  const zoneOf = policyZones(input.desired);

  pendingRows(plan, group('pending'));
  for (const note of plan.notes) {
    const found = classify(note, zoneOf);
    if (!found || !note.item) continue;
    const builder = group(found.state);
    const row = builder.row({ ...note.item, name: nameOf(moves, note.item), ...found.seed });
    for (const id of note.site_ids ?? []) {
      builder.addSite(row, id);
      for (const move of moves.get(itemKey(note.item))?.get(id) ?? [])
        GroupBuilder.addMove(row, move.from, move.to);
    }
  }
  quarantineRows(plan, moves, group('quarantined'));
  const last = lastApply(plan.dashboard.url, input.history ?? []);
  if (last) failedRows(last.records, group('failed'));
  if (plan.security) vulnerableRows(plan.security, moves, group('vulnerable'));

  const report: StatusReport = {
    dashboard: plan.dashboard.url,
    plan_id: plan.id,
    created_at: plan.created_at,
    groups: STATUS_STATES.map((state) => group(state).build()),
  };
  if (plan.rollout_halt) report.rollout_halt = plan.rollout_halt;
  if (last) report.last_apply = last.summary;
  return report;
}

type Moves = Map<string, Map<number, Array<{ from: string; to: string; name: string }>>>;

function itemKey(item: { kind: ItemKind; slug: string }): string {
  return `${item.kind}\u0000${item.slug}`;
}

/** Every pending move by item, then site: the versions a note's sites wait to move between. */
function pendingIndex(pending: LiveState['pending']): Moves {
  const index: Moves = new Map();
  for (const update of pending) {
    const key = itemKey(update);
    let bySite = index.get(key);
    if (!bySite) {
      bySite = new Map();
      index.set(key, bySite);
    }
    const list = bySite.get(update.siteId);
    const move = { from: update.from, to: update.to, name: update.name };
    if (list) list.push(move);
    else bySite.set(update.siteId, [move]);
  }
  return index;
}

function nameOf(moves: Moves, item: { kind: ItemKind; slug: string }): string {
  const bySite = moves.get(itemKey(item));
  if (bySite)
    for (const list of bySite.values()) for (const move of list) if (move.name !== '') return move.name;
  return item.kind === 'core' ? 'WordPress' : item.slug;
}

function policyZones(desired: StatusInput['desired']): Map<string, string> {
  const zones = new Map<string, string>();
  for (const policy of desired?.policies ?? [])
    if (policy.window) zones.set(policy.name, policy.window.timezone);
  return zones;
}

interface Classified {
  state: StatusState;
  seed: { detail: string; until?: string; when?: string };
}

/** Which group a note's fact belongs to, or undefined for notes that are no item state. */
export function classify(note: PlanNote, zoneOf: ReadonlyMap<string, string>): Classified | undefined {
  if (!note.item) return undefined;
  const detail = withoutItem(note.message, note.item);
  if (note.kind === 'held') {
    // Quarantined versions are their own group (from the plan's `quarantines`).
    if (/ is quarantined: /.test(note.message)) return undefined;
    return { state: 'held', seed: { detail } };
  }
  if (note.kind !== 'waiting') return undefined;
  const soak = /soak until (\S+)$/.exec(note.message);
  if (/^updates soak: /.test(detail) && soak) {
    const until = soak[1]!;
    const zone = zoneOf.get(/policy "([^"]*)"/.exec(detail)?.[1] ?? '');
    return { state: 'soaking', seed: { detail, until, when: momentIn(until, zone) } };
  }
  if (/^updates wait for the window of /.test(detail)) {
    const opens = /; it opens (.+ \((\S+)\))$/.exec(detail);
    const seed = opens ? { detail, until: opens[2]!, when: opens[1]! } : { detail };
    return { state: 'window', seed };
  }
  // Wave order, `after`/`healthy_for`, a wave left unhealthy: held by the rollout.
  const ready = /not before (\S+)$/.exec(detail)?.[1];
  return { state: 'held', seed: ready ? { detail, until: ready, when: momentIn(ready) } : { detail } };
}

function withoutItem(message: string, item: { kind: ItemKind; slug: string }): string {
  const prefix = `${describeItem(item)} `;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}

/** `2026-12-01 10:00 Europe/Berlin (2026-12-01T09:00:00.000Z)`, or the UTC time alone. */
function momentIn(iso: string, zone?: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  if (zone === undefined || zone === 'UTC') return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return compileWindow({ schedule: ['* * * * *'], timezone: zone }).describeMoment(at);
}

function pendingRows(plan: Plan, builder: GroupBuilder): void {
  for (const action of plan.actions) {
    const wave = action.wave === undefined ? '' : `, wave ${action.wave}`;
    const risk = action.risk === 'high' ? ', high risk' : '';
    const { kind, slug, name } = action;
    const row = builder.row({ kind, slug, name, detail: `${action.op}${wave}${risk}` });
    builder.addSite(row, action.site_id, action.site_url);
    GroupBuilder.addMove(row, action.from, action.to);
  }
}

function quarantineRows(plan: Plan, moves: Moves, builder: GroupBuilder): void {
  for (const q of plan.quarantines ?? []) {
    const where = q.wave === undefined ? 'a health check' : `wave "${q.wave}"'s health check`;
    const by = q.in_desired_state ? 'held by the desired state' : 'held by the rollout state';
    const repair = q.repair.length > 0 ? `; ${q.repair.length} site(s) to repair by hand` : '';
    const row = builder.row({
      kind: q.kind,
      slug: q.slug,
      name: nameOf(moves, q),
      versions: q.version,
      detail: `since ${q.since}: ${where} found sites unhealthy after it; ${by}${repair}`,
    });
    const phrase = ` update to ${q.version} is `;
    let counted = 0;
    for (const note of plan.notes) {
      if (note.kind !== 'held' || note.item?.kind !== q.kind || note.item.slug !== q.slug) continue;
      if (!note.message.includes(phrase)) continue;
      for (const id of note.site_ids ?? []) builder.addSite(row, id);
      counted += note.site_ids?.length ?? 0;
    }
    // A quarantine whose version no site of this plan still pends has only its count.
    if (counted === 0) builder.addUncounted(row, q.held_sites);
  }
}

/** This dashboard's last run in the history: its records, and their counts. */
function lastApply(dashboard: string, history: readonly StatusHistoryRecord[]) {
  let latest: StatusHistoryRecord | undefined;
  for (const record of history)
    if (record.dashboard === dashboard && (!latest || record.time >= latest.time)) latest = record;
  if (!latest) return undefined;
  const { time, plan_id } = latest;
  const records = history.filter(
    (r) => r.dashboard === dashboard && r.time === time && r.plan_id === plan_id,
  );
  const failed = records.filter((r) => r.outcome === 'failed').length;
  return { records, summary: { time, plan_id, records: records.length, failed } };
}

function failedRows(records: readonly StatusHistoryRecord[], builder: GroupBuilder): void {
  for (const record of records) {
    if (record.outcome !== 'failed') continue;
    const detail = `failed at ${record.time}${record.code ? `: ${record.code}` : ''}`;
    const row = builder.row({ kind: record.kind, slug: record.slug, name: record.name, detail });
    builder.addSite(row, record.site_id, record.site_url);
    GroupBuilder.addMove(row, record.from, record.to);
  }
}

function vulnerableRows(security: PlanSecurity, moves: Moves, builder: GroupBuilder): void {
  const cited = (ids: readonly string[]) => {
    const names = ids
      .slice(0, 2)
      .map((id) => security.advisories[id]?.cve ?? security.advisories[id]?.title ?? id);
    return `${names.join(', ')}${ids.length > 2 ? ` and ${ids.length - 2} more` : ''}`;
  };
  const add = (move: PlanSecurity['updates'][number], detail: string) => {
    const row = builder.row({
      kind: move.kind,
      slug: move.slug,
      name: move.name || nameOf(moves, move),
      detail,
    });
    for (const id of move.site_ids) builder.addSite(row, id);
    GroupBuilder.addMove(row, move.from, move.to);
  };
  for (const move of security.updates) add(move, `security update, will run now (${cited(move.advisories)})`);
  for (const move of security.vulnerable) {
    const why =
      move.fix === 'no-fix' ? 'vulnerable, no fix released' : 'vulnerable, fix pending but not planned';
    add(move, `${why} (${cited(move.advisories)})`);
  }
}
