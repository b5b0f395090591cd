/**
 * Version arithmetic for pending updates. `compareVersions` follows PHP's `version_compare`
 * (the dashboard and WordPress compare versions with it), so `1.0 < 1.0.0`, `1.0-rc1 < 1.0`
 * and `1.0 < 1.0pl1`. Pure; never throws.
 */
import type { VersionLevel } from '../types.js';

/** PHP's special forms, compared by prefix in this order; any other word ranks below `dev`. */
const SPECIAL_FORMS: ReadonlyArray<readonly [string, number]> = [
  ['dev', 0],
  ['alpha', 1],
  ['a', 1],
  ['beta', 2],
  ['b', 2],
  ['RC', 3],
  ['rc', 3],
  ['#', 4],
  ['pl', 5],
  ['p', 5],
];
const UNKNOWN_FORM = -6;
/** The rank of a numeric segment among the special forms. */
const NUMBER_FORM = '#';

const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isAlphanumeric = (c: string): boolean => isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');

/**
 * PHP's canonical form: `-`, `_`, `+` and other non-alphanumerics become `.`, and a `.` is
 * inserted wherever digits and letters meet. Returns the dot-separated, non-empty segments.
 */
export function canonicalSegments(version: string): string[] {
  const segments: string[] = [];
  let current = '';
  for (const c of version) {
    if (!isAlphanumeric(c)) {
      if (current !== '') segments.push(current);
      current = '';
    } else if (current !== '' && isDigit(current[current.length - 1]!) !== isDigit(c)) {
      segments.push(current);
      current = c;
    } else {
      current += c;
    }
  }
  if (current !== '') segments.push(current);
  return segments;
}

function specialRank(form: string): number {
  for (const [name, rank] of SPECIAL_FORMS) {
    if (form.startsWith(name)) return rank;
  }
  return UNKNOWN_FORM;
}

/** Numeric comparison of digit strings of any length (no float rounding). */
function compareDigits(a: string, b: string): number {
  const x = a.slice(leadingZeros(a));
  const y = b.slice(leadingZeros(b));
  if (x.length !== y.length) return Math.sign(x.length - y.length);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** How many leading zeros to drop from a digit string, keeping its last digit. */
function leadingZeros(digits: string): number {
  let count = 0;
  while (count < digits.length - 1 && digits.charCodeAt(count) === 48) count++;
  return count;
}

function compareSegments(a: string, b: string): number {
  const aNumeric = isDigit(a[0] ?? '');
  const bNumeric = isDigit(b[0] ?? '');
  if (aNumeric && bNumeric) return compareDigits(a, b);
  const rankA = aNumeric ? specialRank(NUMBER_FORM) : specialRank(a);
  const rankB = bNumeric ? specialRank(NUMBER_FORM) : specialRank(b);
  return Math.sign(rankA - rankB);
}

/** -1, 0 or 1 like PHP `version_compare(a, b)`. The empty version is below every other. */
export function compareVersions(a: string, b: string): number {
  return compareSegmentLists(canonicalSegments(a), canonicalSegments(b));
}

/** compareVersions of two versions already in canonical segments (canonicalSegments). */
export function compareSegmentLists(left: readonly string[], right: readonly string[]): number {
  if (left.length === 0 || right.length === 0) return Math.sign(left.length - right.length);
  const common = Math.min(left.length, right.length);
  for (let i = 0; i < common; i++) {
    const result = compareSegments(left[i]!, right[i]!);
    if (result !== 0) return result;
  }
  // A longer version wins when its next segment is a number and loses to a pre-release word.
  if (left.length > common) return compareSegments(left[common]!, NUMBER_FORM) || 1;
  if (right.length > common) return compareSegments(NUMBER_FORM, right[common]!) || -1;
  return 0;
}

/** Where a version's numbers start: after its leading words (`v1.2` → 1, `release-1.2` → 1). */
function numbersStart(segments: readonly string[]): number {
  let start = 0;
  while (start < segments.length && !isDigit(segments[start]![0] ?? '')) start++;
  return start;
}

/** The major and minor numbers from `start` (`6.4.1-beta` → ['6', '4']), missing ones as '0'. */
function majorMinor(segments: readonly string[], start: number): [string, string] {
  const numbers: string[] = [];
  for (let i = start; i < segments.length; i++) {
    const segment = segments[i]!;
    if (!isDigit(segment[0] ?? '') || numbers.length === 2) break;
    numbers.push(segment);
  }
  return [numbers[0] ?? '0', numbers[1] ?? '0'];
}

/** Whether both versions start with the same words (`v` and `v`, or none at all). */
function sameLeadingWords(a: readonly string[], b: readonly string[], count: number): boolean {
  for (let i = 0; i < count; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * How far `from → to` moves: `none` when `to` is not newer, else `major` / `minor` / `patch`
 * by the first of the three leading numbers that differs (`6.4.1 → 7.0` major, `→ 6.5` minor,
 * `→ 6.4.2` or `→ 6.4.1.1` patch). Leading words are skipped when both versions share them
 * (`v1.2.3 → v2.0` is major); when they differ (`v1.0 → 1.1`, `beta → rc`) how far the move
 * goes is unknown, so it counts as major, the safe side. A translation's unknown target
 * (`to` = '') counts as patch.
 */
export function versionLevel(from: string, to: string): VersionLevel {
  if (to === '') return 'patch';
  const fromSegments = canonicalSegments(from);
  const toSegments = canonicalSegments(to);
  if (compareSegmentLists(toSegments, fromSegments) <= 0) return 'none';
  const start = numbersStart(fromSegments);
  if (numbersStart(toSegments) !== start || !sameLeadingWords(fromSegments, toSegments, start))
    return 'major';
  const [fromMajor, fromMinor] = majorMinor(fromSegments, start);
  const [toMajor, toMinor] = majorMinor(toSegments, start);
  if (compareDigits(toMajor, fromMajor) !== 0) return 'major';
  if (compareDigits(toMinor, fromMinor) !== 0) return 'minor';
  return 'patch';
}

/**
 * The level of a pending update of `kind`: its versionLevel, except that a target nobody
 * reported ('') is a patch only for a translation (which has no version by nature); for core,
 * a plugin or a theme how far it goes is unknown, so it is major, the safe side.
 */
export function updateLevel(
  kind: string,
  from: string,
  to: string,
  level: (from: string, to: string) => VersionLevel = versionLevel,
): VersionLevel {
  return to === '' && kind !== 'translation' ? 'major' : level(from, to);
}

const LEVEL_ORDER: Record<VersionLevel, number> = { none: 0, patch: 1, minor: 2, major: 3 };

/** True when `level` is no further than `max` (`patch` ≤ `minor` ≤ `major`). */
export function levelWithin(level: VersionLevel, max: VersionLevel): boolean {
  return LEVEL_ORDER[level] <= LEVEL_ORDER[max];
}

/**
 * Whether a pin allows `to`: `to`'s numbers (after any leading word: `v9.4.7` → 9.4.7) cut to as
 * many segments as the pin must not exceed it, so pin `9.4` allows `9.4`, `9.4.7` and `v9.4.7`,
 * and blocks `9.5` and `v9.5`. A target without a number ('', a word) is never within a pin:
 * nobody can show it is.
 */
export function withinPin(to: string, maxVersion: string): boolean {
  const segments = canonicalSegments(to);
  const start = numbersStart(segments);
  if (start === segments.length) return false;
  const width = canonicalSegments(maxVersion).length;
  const cut = segments.slice(start, start + width).join('.');
  return compareVersions(cut, maxVersion) <= 0;
}
