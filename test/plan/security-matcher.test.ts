import { describe, expect, it } from 'vitest';
import { prng } from '../../scripts/bench/fixtures.js';
import { createSecurityIndex, inRange } from '../../src/plan/security.js';
import { versionKey } from '../../src/plan/version-key.js';
import { compareVersions } from '../../src/plan/versions.js';
import type { Advisory, VersionRange } from '../../src/types.js';

/**
 * The matcher a fleet's plan runs once per pending update: versions no advisory affects are
 * decided on numeric version keys, which must order exactly like compareVersions, and the
 * verdicts of a fleet's many moves share their advisory lists (what is derived from a list is
 * made once per distinct set, not once per site or move).
 */
const random = prng(32);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const PARTS = ['0', '1', '2', '9', '10', '01', '8190', '8191', '20240101'];
const SEPARATORS = ['.', '.', '.', '-', '_', '..', '+'];

/** Mostly numeric versions of one to five parts; some with words, some with huge parts. */
function version(): string {
  if (random() < 0.05) return pick(['', '*', '6.5-RC1', 'v1.2', '1.0pl1', '1.0-beta', 'x']);
  let text = pick(PARTS);
  const parts = 1 + Math.floor(random() * 5);
  for (let i = 1; i < parts; i++) text += pick(SEPARATORS) + pick(PARTS);
  return text;
}

describe('the feed matcher', () => {
  it('orders version keys like compareVersions, or gives none (-1)', () => {
    for (let i = 0; i < 5_000; i++) {
      const a = version();
      const b = version();
      const [x, y] = [versionKey(a), versionKey(b)];
      if (x < 0 || y < 0) continue;
      expect(Math.sign(x - y), `${a} vs ${b}`).toBe(Math.sign(compareVersions(a, b)));
    }
    expect(versionKey('6.5-RC1')).toBe(-1);
    expect(versionKey('1.2.3.4.5')).toBe(-1);
    expect(versionKey('20240101')).toBe(-1);
    expect(versionKey('1.0')).toBeLessThan(versionKey('1.0.0'));
  });

  it('judges like inRange with compareVersions, whatever the versions look like', () => {
    const advisories: Advisory[] = [];
    for (let i = 0; i < 40; i++) {
      const range = (): VersionRange => ({
        from: random() < 0.3 ? '*' : version(),
        fromInclusive: random() < 0.5,
        to: random() < 0.3 ? '*' : version(),
        toInclusive: random() < 0.5,
      });
      advisories.push({
        id: `A${i}`,
        kind: 'plugin',
        slug: `p${i % 4}`,
        title: `A${i}`,
        link: 'https://example.test/',
        affected: random() < 0.3 ? [range(), range()] : [range()],
        patched: random() < 0.8 ? [version()] : [],
      });
    }
    const index = createSecurityIndex(advisories);
    for (let i = 0; i < 3_000; i++) {
      const slug = `p${i % 5}`;
      const [from, to] = [version(), version()];
      const affecting = advisories.filter(
        (a) => a.slug === slug && a.affected.some((range) => inRange(from, range)),
      );
      const verdict = index.judge({ kind: 'plugin', slug: `${slug}/${slug}.php`, from, to });
      if (affecting.length === 0) {
        expect(verdict, `${slug} ${from}`).toBeUndefined();
        continue;
      }
      const fixes = (a: Advisory) =>
        to !== '' &&
        !a.affected.some((range) => inRange(to, range)) &&
        a.patched.some((patched) => compareVersions(to, patched) >= 0);
      expect(
        verdict?.fixed.map((a) => a.id),
        `${slug} ${from} → ${to}`,
      ).toEqual(affecting.filter(fixes).map((a) => a.id));
      expect(verdict?.unfixed.map((a) => a.id)).toEqual(affecting.filter((a) => !fixes(a)).map((a) => a.id));
    }
  });

  it('shares one advisory list per distinct set across moves and sites', () => {
    const advisory = (id: string, to: string, patched: string[]): Advisory => ({
      id,
      kind: 'plugin',
      slug: 'akismet',
      title: id,
      link: 'https://example.test/',
      affected: [{ from: '*', fromInclusive: true, to, toInclusive: true }],
      patched,
    });
    const index = createSecurityIndex([advisory('A1', '5.3.6', ['5.3.7']), advisory('A2', '4.0', [])]);
    const judge = (from: string, to: string) =>
      index.judge({ kind: 'plugin', slug: 'akismet/akismet.php', from, to })!;
    // Another installed version, another target: the same advisories, so the same list.
    expect(judge('5.3.1', '5.3.7').fixed).toBe(judge('5.2', '5.4').fixed);
    expect(judge('5.3.1', '5.3.7').fixed.map((a) => a.id)).toEqual(['A1']);
    expect(judge('3.0', '5.3.7').unfixed.map((a) => a.id)).toEqual(['A2']);
    expect(judge('2.0', '3.0').unfixed.map((a) => a.id)).toEqual(['A1', 'A2']);
    expect(judge('2.0', '3.0').unfixed).toBe(judge('3.1', '3.2').unfixed);
    // The same move on another site: the same verdict object.
    expect(judge('5.3.1', '5.3.7')).toBe(judge('5.3.1', '5.3.7'));
  });
});
