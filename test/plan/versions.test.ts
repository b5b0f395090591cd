import { describe, expect, it } from 'vitest';
import { compareVersions, versionLevel, withinPin } from '../../src/plan/index.js';

// Expected values are PHP's version_compare() results.
const COMPARISONS: Array<[string, string, number]> = [
  ['5.3.6', '5.3.7', -1],
  ['6.4.10', '6.4.9', 1],
  ['10.0', '9.9', 1],
  ['8.9.1', '9.0.0', -1],
  ['1.0.0', '1.0.0', 0],
  ['01.2', '1.2', 0],
  ['1.0', '1.0.0', -1],
  ['1.0.0', '1.0', 1],
  ['1.0.0', '1.0.0.0', -1],
  ['1.0rc1', '1.0', -1],
  ['1.0-RC1', '1.0rc1', 0],
  ['1.0', '1.0pl1', -1],
  ['1.0-patch1', '1.0', 1],
  ['1.0-dev', '1.0-alpha', -1],
  ['1.0alpha', '1.0a', 0],
  ['1.0b1', '1.0beta1', 0],
  ['1.0-beta', '1.0-rc', -1],
  ['1.0-beta2', '1.0-beta10', -1],
  ['1.0-foo', '1.0-dev', -1],
  ['1_0', '1.0', 0],
  ['1+0', '1.0', 0],
  ['1..0', '1.0', 0],
  ['', '1.0', -1],
  ['', '', 0],
  ['1.99999999999999999999', '1.99999999999999999998', 1],
];

describe('compareVersions (PHP version_compare)', () => {
  it.each(COMPARISONS)('%s vs %s → %i', (a, b, expected) => {
    expect(compareVersions(a, b)).toBe(expected);
    expect(compareVersions(b, a)).toBe(-expected || 0);
  });
});

describe('versionLevel', () => {
  it.each([
    ['6.4.1', '6.4.2', 'patch'],
    ['6.4', '6.4.1', 'patch'],
    ['6.4.1', '6.4.1.1', 'patch'],
    ['1.0-beta', '1.0', 'patch'],
    ['6.4.1', '6.5', 'minor'],
    ['3.20.1', '3.21.0', 'minor'],
    ['6.4.1', '7.0', 'major'],
    ['8.9.1', '9.0.0', 'major'],
    ['6.4.1', '6.4.1', 'none'],
    ['6.5', '6.4', 'none'],
    ['6.4.1', '', 'patch'],
  ])('%s → %s is %s', (from, to, level) => {
    expect(versionLevel(from, to)).toBe(level);
  });

  // A leading word is no number: `v1.2.3 → v2.0.0` is a major jump, not a patch (a patch-only
  // policy let it run, at medium risk).
  it.each([
    ['v1.2.3', 'v2.0.0', 'major'],
    ['v1.9', 'v1.10', 'minor'],
    ['v1.0.1', 'v1.0.2', 'patch'],
    ['release-1.0', 'release-1.0.1', 'patch'],
    ['v1.0', '1.1', 'major'],
    ['', 'v1.0', 'major'],
    ['beta', 'rc', 'major'],
  ])('with leading words: %s → %s is %s', (from, to, level) => {
    expect(versionLevel(from, to)).toBe(level);
  });
});

describe('withinPin', () => {
  it.each([
    ['9.4', '9.4', true],
    ['9.4.0', '9.4', true],
    ['9.4.7', '9.4', true],
    ['9.3.9', '9.4', true],
    ['9.5', '9.4', false],
    ['10.0', '9.4', false],
    ['9.4.2', '9.4.2', true],
    ['9.4.2.1', '9.4.2', true],
    ['9.4.3', '9.4.2', false],
    ['', '9.4', false],
    // A target with a leading word is compared on its numbers: `v9.5` is beyond pin 9.4.
    ['v9.5', '9.4', false],
    ['v10.0', '9.4', false],
    ['v9.4.7', '9.4', true],
    ['beta', '9.4', false],
  ])('target %s with pin %s → %s', (to, pin, allowed) => {
    expect(withinPin(to, pin)).toBe(allowed);
  });
});
