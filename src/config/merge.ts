import type { Diagnostic } from '../errors.js';
import type { FileState, MergedState, Place, RawItemAt, RawSelection, RawWave, Valued } from './model.js';
import { diagnostic, type Locate, placeText } from './places.js';

/**
 * Merges the files of a directory into one state. Lists (ignore rules, policies, holds) are
 * concatenated in file order; a value that can only be set once (a group, `sites`, `unmanaged`,
 * the waves, each approval limit) may appear in several files only when every file says the same
 * thing, otherwise it is a contradiction reported at both places.
 */
export function mergeFiles(
  files: FileState[],
  locate: Locate,
): { merged: MergedState; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const contradiction = (what: string, first: Place, second: Place) =>
    diagnostics.push(
      diagnostic(locate, {
        rule: 'contradiction',
        message: `${what} is set differently here and at ${placeText(locate, first)}`,
        place: second,
        key: true,
        hint: 'keep one definition (usually in the file of the team that owns it) or make them equal',
        related: [{ place: first, message: `first definition of ${what}` }],
      }),
    );
  const merged: MergedState = {
    groups: new Map(),
    ignoreRules: [],
    policies: [],
    holds: [],
    waves: [],
    approval: {},
  };
  let wavesPlace: Place | undefined;
  for (const file of files) {
    for (const group of file.groups) {
      const existing = merged.groups.get(group.name);
      if (!existing) merged.groups.set(group.name, group);
      else if (itemsKey(existing.items) !== itemsKey(group.items)) {
        contradiction(`group \`${group.name}\``, existing.place, group.place);
      }
    }
    if (file.sites) {
      if (!merged.sites) merged.sites = file.sites;
      else if (selectionKey(merged.sites) !== selectionKey(file.sites)) {
        contradiction('`sites`', merged.sites.place, file.sites.place);
      }
    }
    merged.unmanaged = single(merged.unmanaged, file.unmanaged, '`ignores.unmanaged`', contradiction);
    // Loops, not push(...): a file may hold more entries than a call can take as arguments.
    for (const rule of file.ignoreRules) merged.ignoreRules.push(rule);
    for (const policy of file.policies) merged.policies.push(policy);
    for (const hold of file.holds) merged.holds.push(hold);
    if (file.waves) {
      const key = JSON.stringify(file.waves.value.map(waveKey));
      const mergedKey = JSON.stringify(merged.waves.map(waveKey));
      if (!wavesPlace) {
        merged.waves = file.waves.value;
        wavesPlace = file.waves.place;
      } else if (key !== mergedKey) contradiction('`rollout.waves`', wavesPlace, file.waves.place);
    }
    if (file.health) {
      if (!merged.health) merged.health = file.health;
      else if (JSON.stringify(merged.health.value) !== JSON.stringify(file.health.value)) {
        contradiction('`rollout.health`', merged.health.place, file.health.place);
      }
    }
    if (file.security) {
      if (!merged.security) merged.security = file.security;
      else if (JSON.stringify(merged.security.value) !== JSON.stringify(file.security.value)) {
        contradiction('`security`', merged.security.place, file.security.place);
      }
    }
    const a = file.approval;
    merged.approval.maxSites = single(
      merged.approval.maxSites,
      a.maxSites,
      '`approval.max_sites`',
      contradiction,
    );
    merged.approval.core = single(merged.approval.core, a.core, '`approval.core`', contradiction);
    merged.approval.major = single(merged.approval.major, a.major, '`approval.major`', contradiction);
  }
  return { merged, diagnostics };
}

function single<T>(
  current: Valued<T> | undefined,
  next: Valued<T> | undefined,
  what: string,
  contradiction: (what: string, first: Place, second: Place) => void,
): Valued<T> | undefined {
  if (!next) return current;
  if (!current) return next;
  if (current.value !== next.value) contradiction(what, current.place, next.place);
  return current;
}

/** Everything a wave says, without places: two files agree on a wave when these are equal. */
function waveKey(w: RawWave): unknown[] {
  const window = w.window && [w.window.schedule.map((s) => s.value), w.window.timezone.value];
  return [
    w.name,
    selectionKey(w.sites),
    w.maxFailures,
    window,
    w.after?.wave.value,
    w.after?.healthyFor,
    w.maxUnhealthy,
    w.paths,
  ];
}

function itemsKey(items: RawItemAt[]): string {
  return JSON.stringify(items.map((i) => i.item));
}

function selectionKey(s: RawSelection): string {
  return `${itemsKey(s.include)}-${itemsKey(s.exclude)}`;
}
