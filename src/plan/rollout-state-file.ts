/**
 * The rollout state file's text. One JSON record per line under a `{"format":2}` header, lines
 * sorted: two branches that each add or change records merge line by line, and with
 * `merge=union` in `.gitattributes` Git keeps both sides' lines without a conflict. Reading is
 * therefore order-free and resolves a record that appears twice on the safe side (the later
 * time, every unhealthy site): a merge can delay a rollout, never speed it up.
 *
 * Anything the reader does not understand (a conflict marker, an unknown key, a time after
 * `now`) is refused with file:line, never skipped: a gate never opens on a guess.
 */
import { compareCodeUnits, SvcError } from '../errors.js';
import type { NotifiedRecord, QuarantineRecord, RolloutState, UnhealthySite, WaveRecord } from '../types.js';
import { mergeNotified, NOTIFIED_KEYS, readNotified, writeNotified } from './rollout-notified.js';
import {
  mergeQuarantines,
  QUARANTINE_KEYS,
  readQuarantine,
  writeQuarantine,
} from './rollout-quarantine-file.js';

export const ROLLOUT_STATE_FORMAT = 2;
const HEADER = `{"format":${ROLLOUT_STATE_FORMAT}}`;
const WAVE_TIMES = ['updated_at', 'done_seen_at', 'unhealthy_at'] as const;
const WAVE_KEYS = new Set<string>(['wave', 'unhealthy', 'unhealthy_since', ...WAVE_TIMES]);
const SITE_KEYS = new Set(['site_id', 'site_url', 'problem', 'after']);

export function emptyRolloutState(): RolloutState {
  return { first_seen: {}, waves: {} };
}

/** Why a file is refused: a code with data; the front end words the hint. */
export interface RolloutStateProblem {
  file: string;
  line?: number;
  reason: 'conflict' | 'syntax' | 'unknown-key' | 'future-time' | 'bad-value' | 'format';
}

function refuse(problem: RolloutStateProblem, what: string): never {
  const at = problem.line === undefined ? problem.file : `${problem.file}:${problem.line}`;
  throw new SvcError('CONFIG_INVALID', `${at}: rollout state: ${what}`, {
    details: { ...problem },
    hint:
      problem.reason === 'conflict'
        ? 'keep the lines of both sides and drop the conflict markers: each line is one record, and svc-gitops reads a record found twice on the safe side; the line `*.rollout.json merge=union` in .gitattributes lets Git do this'
        : 'restore the file from Git history (`git log -p -- <file>`): the gates stay shut until it reads',
  });
}

/** Parses the file (this format, or format 1 written by earlier versions), as of `now`. */
export function parseRolloutState(text: string, path: string, now: Date): RolloutState {
  const lines = text.split('\n');
  const first = lines.findIndex((line) => line.trim() !== '');
  if (first >= 0 && lines[first]!.trim() !== HEADER) {
    const legacy = parseLegacy(text);
    if (legacy) return readLegacy(legacy, text, path, now);
  }
  const state = emptyRolloutState();
  let header = false;
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const at: RolloutStateProblem = { file: path, line: index + 1, reason: 'syntax' };
    if (/^(<{7}|={7}|>{7}|\|{7})/.test(line))
      refuse({ ...at, reason: 'conflict' }, 'an unresolved Git merge conflict');
    if (line === HEADER) {
      header = true;
      continue;
    }
    if (!header) refuse({ ...at, reason: 'format' }, `the first line must be ${HEADER}`);
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch (error) {
      refuse(at, `not a JSON record (${(error as Error).message})`);
    }
    addRecord(state, record, at, now);
  }
  if (!header && first >= 0) refuse({ file: path, reason: 'format' }, `no ${HEADER} header`);
  return state;
}

function addRecord(state: RolloutState, record: unknown, at: RolloutStateProblem, now: Date): void {
  if (!isRecord(record)) refuse({ ...at, reason: 'bad-value' }, 'a record must be a JSON object');
  if (typeof record.first_seen === 'string') {
    unknownKeys(record, new Set(['first_seen', 'at']), at);
    const time = checkTime(record.at, `first_seen "${record.first_seen}"`, at, now);
    const known = state.first_seen[record.first_seen];
    // Seen twice (a merge): the later sighting, so the soak is never shorter than either side's.
    if (known === undefined || Date.parse(known) < Date.parse(time))
      state.first_seen[record.first_seen] = time;
    return;
  }
  // Before `wave`: a quarantine record names its wave too.
  if (typeof record.quarantine === 'string') {
    unknownKeys(record, QUARANTINE_KEYS, at);
    const read = readQuarantine(record, {
      time: (value, what) => checkTime(value, `quarantine "${record.quarantine}" ${what}`, at, now),
      site: (value) => checkSite(value, at),
      bad: (what) => refuse({ ...at, reason: 'bad-value' }, what),
    });
    const quarantines = state.quarantines ?? {};
    const known = quarantines[record.quarantine];
    quarantines[record.quarantine] = known ? mergeQuarantines(known, read) : read;
    state.quarantines = quarantines;
    return;
  }
  if (typeof record.notified === 'string') {
    unknownKeys(record, NOTIFIED_KEYS, at);
    const read = readNotified(record, {
      time: (value, what) => checkTime(value, `notified "${record.notified}" ${what}`, at, now),
      bad: (what) => refuse({ ...at, reason: 'bad-value' }, what),
    });
    const notified = state.notified ?? {};
    const known = notified[record.notified];
    notified[record.notified] = known ? mergeNotified(known, read) : read;
    state.notified = notified;
    return;
  }
  if (typeof record.wave === 'string') {
    unknownKeys(record, WAVE_KEYS, at);
    const wave: WaveRecord = { unhealthy: [] };
    for (const key of WAVE_TIMES)
      if (record[key] !== undefined)
        wave[key] = checkTime(record[key], `wave "${record.wave}" ${key}`, at, now);
    if (record.unhealthy_since !== undefined)
      wave.unhealthy_since = checkTime(
        record.unhealthy_since,
        `wave "${record.wave}" unhealthy_since`,
        at,
        now,
      );
    const unhealthy = record.unhealthy ?? [];
    if (!Array.isArray(unhealthy)) refuse({ ...at, reason: 'bad-value' }, 'unhealthy must be a list');
    for (const site of unhealthy) wave.unhealthy.push(checkSite(site, at));
    const known = state.waves[record.wave];
    state.waves[record.wave] = known ? mergeWaveRecords(known, wave) : wave;
    return;
  }
  refuse({ ...at, reason: 'unknown-key' }, 'a record has `first_seen`, `quarantine`, `notified` or `wave`');
}

/** Two records of one wave (a merge): each time the later, every unhealthy site of either. */
export function mergeWaveRecords(a: WaveRecord, b: WaveRecord): WaveRecord {
  const merged: WaveRecord = { unhealthy: [...a.unhealthy] };
  for (const key of WAVE_TIMES) {
    const times = [a[key], b[key]].filter((t): t is string => t !== undefined);
    if (times.length > 0) merged[key] = times.reduce((x, y) => (Date.parse(x) >= Date.parse(y) ? x : y));
  }
  // The spell began at the earlier of the two; the gates never read it (display only).
  const spell = [a.unhealthy_since, b.unhealthy_since].filter((t): t is string => t !== undefined);
  if (spell.length > 0)
    merged.unhealthy_since = spell.reduce((x, y) => (Date.parse(x) <= Date.parse(y) ? x : y));
  const ids = new Set(a.unhealthy.map((site) => site.site_id));
  for (const site of b.unhealthy) if (!ids.has(site.site_id)) merged.unhealthy.push(site);
  merged.unhealthy.sort((x, y) => x.site_id - y.site_id);
  return merged;
}

function unknownKeys(record: Record<string, unknown>, known: Set<string>, at: RolloutStateProblem): void {
  for (const key of Object.keys(record))
    if (!known.has(key)) refuse({ ...at, reason: 'unknown-key' }, `unknown key "${key}"`);
}

function checkTime(value: unknown, what: string, at: RolloutStateProblem, now: Date): string {
  const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) refuse({ ...at, reason: 'bad-value' }, `${what}: not a time`);
  // A time after now would count as older than it is never; it can only come from a wrong clock
  // or a hand edit, and trusting it could shorten no gate but hides a mistake: refused.
  if (time > now.getTime())
    refuse({ ...at, reason: 'future-time' }, `${what} is ${value}, after now (${now.toISOString()})`);
  return new Date(time).toISOString();
}

function checkSite(value: unknown, at: RolloutStateProblem): UnhealthySite {
  const ok =
    isRecord(value) &&
    Number.isInteger(value.site_id) &&
    typeof value.site_url === 'string' &&
    typeof value.problem === 'string' &&
    (value.after === undefined ||
      (Array.isArray(value.after) && value.after.every((a) => typeof a === 'string')));
  if (!ok) refuse({ ...at, reason: 'bad-value' }, 'unhealthy sites are {site_id, site_url, problem, after}');
  unknownKeys(value as Record<string, unknown>, SITE_KEYS, at);
  return value as unknown as UnhealthySite;
}

/** The file: header, then first sightings, quarantines, notified sites and waves, each sorted by its key. */
export function serialiseRolloutState(state: RolloutState): string {
  const lines = [HEADER];
  const keys = (record: object) => Object.keys(record).sort(compareCodeUnits);
  for (const key of keys(state.first_seen))
    lines.push(JSON.stringify({ first_seen: key, at: state.first_seen[key] }));
  const quarantines: Record<string, QuarantineRecord> = state.quarantines ?? {};
  for (const key of keys(quarantines)) lines.push(writeQuarantine(key, quarantines[key]!));
  const notified: Record<string, NotifiedRecord> = state.notified ?? {};
  for (const key of keys(notified)) lines.push(writeNotified(key, notified[key]!));
  for (const name of keys(state.waves)) {
    const record = state.waves[name]!;
    const line: Record<string, unknown> = { wave: name };
    for (const key of WAVE_TIMES) if (record[key] !== undefined) line[key] = record[key];
    if (record.unhealthy_since !== undefined) line.unhealthy_since = record.unhealthy_since;
    line.unhealthy = record.unhealthy;
    lines.push(JSON.stringify(line));
  }
  return `${lines.join('\n')}\n`;
}

// Format 1: one JSON object (`first_seen` and `waves` maps), read once and written as format 2.

function parseLegacy(text: string): Record<string, unknown> | undefined {
  try {
    const data: unknown = JSON.parse(text);
    return isRecord(data) && data.format === 1 ? data : undefined;
  } catch {
    return undefined;
  }
}

function readLegacy(data: Record<string, unknown>, text: string, path: string, now: Date): RolloutState {
  // The line of a key, for messages: format 1 was written with one key per line.
  const lineOf = (key: string) => {
    const index = text.indexOf(`"${key}"`);
    return index < 0 ? undefined : text.slice(0, index).split('\n').length;
  };
  const at = (key: string): RolloutStateProblem => {
    const line = lineOf(key);
    return line === undefined
      ? { file: path, reason: 'bad-value' }
      : { file: path, line, reason: 'bad-value' };
  };
  unknownKeys(data, new Set(['format', 'first_seen', 'waves']), { file: path, reason: 'unknown-key' });
  const state = emptyRolloutState();
  const firstSeen = data.first_seen ?? {};
  if (!isRecord(firstSeen)) refuse(at('first_seen'), 'first_seen must be an object');
  for (const [key, value] of Object.entries(firstSeen))
    addRecord(state, { first_seen: key, at: value }, at(key), now);
  const waves = data.waves ?? {};
  if (!isRecord(waves)) refuse(at('waves'), 'waves must be an object');
  for (const [name, value] of Object.entries(waves))
    addRecord(state, { ...(isRecord(value) ? value : {}), wave: name }, at(name), now);
  return state;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
