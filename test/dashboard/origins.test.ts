import { afterEach, describe, expect, it } from 'vitest';
import { classifyIgnores, refuseRepeatedIgnores } from '../../src/dashboard/live/origins.js';
import { parseIgnoredListing, type WireIgnore } from '../../src/dashboard/wire/reads.js';
import { createPlan } from '../../src/plan/create.js';
import { desiredState, PLAN_OPTIONS } from '../plan/builders.js';
import { type Harness, openHarness } from './helpers/sandbox.js';

const SITES = [1, 2, 3];

function onEverySite(entry: Omit<WireIgnore, 'siteId'>): WireIgnore[] {
  return SITES.map((siteId) => ({ siteId, ...entry }));
}

const origins = (listed: WireIgnore[], siteIds: readonly number[] = SITES) =>
  classifyIgnores(listed, new Map(), new Set(siteIds)).map(
    (i) => `${i.siteId}:${i.kind}:${i.slug}:${i.origin}`,
  );

describe('classifyIgnores: where a listed ignore is stored', () => {
  it('takes an ignore set through an ability (name = slug) as per-site, even on every site', () => {
    const listed = onEverySite({
      kind: 'plugin',
      slug: 'akismet/akismet.php',
      versions: 'all',
      name: 'akismet/akismet.php',
    });
    expect(origins(listed)).toEqual([
      '1:plugin:akismet/akismet.php:site',
      '2:plugin:akismet/akismet.php:site',
      '3:plugin:akismet/akismet.php:site',
    ]);
  });

  it('takes an entry with its real name on every site as global, and a second entry on one site as per-site', () => {
    const global = onEverySite({
      kind: 'plugin',
      slug: 'jetpack/jetpack.php',
      versions: 'all',
      name: 'Jetpack',
    });
    const ownCopy: WireIgnore = {
      siteId: 2,
      kind: 'plugin',
      slug: 'jetpack/jetpack.php',
      versions: 'all',
      name: 'jetpack/jetpack.php',
    };
    expect(origins([...global.slice(0, 2), ownCopy, ...global.slice(2)])).toEqual([
      '1:plugin:jetpack/jetpack.php:global',
      '2:plugin:jetpack/jetpack.php:global',
      '2:plugin:jetpack/jetpack.php:site',
      '3:plugin:jetpack/jetpack.php:global',
    ]);
  });

  it('keeps a real-name entry present on some sites only, or with other versions, per-site', () => {
    const listed: WireIgnore[] = [
      { siteId: 1, kind: 'theme', slug: 'astra', versions: 'all', name: 'Astra' },
      { siteId: 2, kind: 'theme', slug: 'astra', versions: ['4.7.0'], name: 'Astra' },
      { siteId: 3, kind: 'theme', slug: 'astra', versions: 'all', name: 'Astra' },
      { siteId: 3, kind: 'plugin', slug: 'hello/hello.php', versions: 'all', name: 'Hello Dolly' },
    ];
    expect(new Set(classifyIgnores(listed, new Map(), new Set(SITES)).map((i) => i.origin))).toEqual(
      new Set(['site']),
    );
  });

  it('drops an exact repeat of an entry and never calls a one-site listing global', () => {
    const entry: WireIgnore = {
      siteId: 1,
      kind: 'core',
      slug: 'wordpress',
      versions: ['6.9'],
      name: 'WordPress',
    };
    expect(origins([entry, entry], [1])).toEqual(['1:core:wordpress:site']);
  });

  it('counts every site the dashboard lists: a site without ignores of its own would list a global one', () => {
    const twoOfThree: WireIgnore[] = [1, 2].map((siteId) => ({
      siteId,
      kind: 'core',
      slug: 'wordpress',
      versions: 'all',
      name: 'WordPress',
    }));
    expect(origins(twoOfThree, [1, 2, 3])).toEqual(['1:core:wordpress:site', '2:core:wordpress:site']);
    expect(origins(twoOfThree, [1, 2])).toEqual(['1:core:wordpress:global', '2:core:wordpress:global']);
  });

  it('classifies a listing the same whatever order its sites come in, and keeps each site once per item', () => {
    const entries: WireIgnore[] = [
      ...onEverySite({ kind: 'core', slug: 'wordpress', versions: 'all', name: 'WordPress' }),
      {
        siteId: 2,
        kind: 'plugin',
        slug: 'jetpack/jetpack.php',
        versions: 'all',
        name: 'jetpack/jetpack.php',
      },
      {
        siteId: 2,
        kind: 'plugin',
        slug: 'jetpack/jetpack.php',
        versions: 'all',
        name: 'jetpack/jetpack.php',
      },
      { siteId: 3, kind: 'theme', slug: 'astra', versions: ['4.1'], name: 'Astra' },
    ];
    const bySite = entries.sort((a, b) => a.siteId - b.siteId);
    const ordered = origins(bySite);
    expect(ordered).toEqual([
      '1:core:wordpress:global',
      '2:core:wordpress:global',
      '2:plugin:jetpack/jetpack.php:site',
      '3:core:wordpress:global',
      '3:theme:astra:site',
    ]);
    // Sites interleaved and in reverse: the same entries, each site's in its listed order.
    expect(origins([...bySite].reverse())).toEqual([
      '1:core:wordpress:global',
      '2:plugin:jetpack/jetpack.php:site',
      '2:core:wordpress:global',
      '3:theme:astra:site',
      '3:core:wordpress:global',
    ]);
  });

  it('drops repeats on a site listing more items than are compared one by one', () => {
    const many: WireIgnore[] = Array.from({ length: 200 }, (_, i) => ({
      siteId: 1,
      kind: 'plugin',
      slug: `p${i}/p${i}.php`,
      versions: 'all',
      name: `p${i}/p${i}.php`,
    }));
    const listed = [...many, many[0] as WireIgnore, many[150] as WireIgnore];
    expect(origins(listed, [1])).toEqual(many.map((e) => `1:plugin:${e.slug}:site`));
  });

  it('reads the stored name from the shipped listing', () => {
    const listing = parseIgnoredListing(
      {
        ignored: [
          {
            site_id: 1,
            site_url: 'https://a.test/',
            site_name: 'a.test',
            type: 'plugin',
            slug: 'a/a.php',
            name: 'a/a.php',
            ignored_version: 'all_versions',
          },
          { site_id: 1, type: 'theme', slug: 'astra', name: 'Astra', ignored_version: '4.7.0' },
        ],
        total: 2,
      },
      'w',
    );
    expect(listing.ignored.map((i) => i.name)).toEqual(['a/a.php', 'Astra']);
  });
});

describe('refuseRepeatedIgnores: an item listed more often than a consistent listing can', () => {
  const ALL = new Set(SITES);
  const jetpack = { kind: 'plugin', slug: 'jetpack/jetpack.php', versions: 'all', name: 'Jetpack' } as const;
  const own = (siteId: number): WireIgnore => ({ ...jetpack, siteId, name: 'jetpack/jetpack.php' });
  const core = (siteId: number): WireIgnore => ({
    siteId,
    kind: 'core',
    slug: 'wordpress',
    versions: 'all',
    name: 'WordPress',
  });

  it("accepts a site's own entry next to the global one, identical or not", () => {
    const global = onEverySite(jetpack);
    expect(() => refuseRepeatedIgnores([...global, own(2)], ALL)).not.toThrow();
    expect(() => refuseRepeatedIgnores([...global, { ...jetpack, siteId: 2 }], ALL)).not.toThrow();
    expect(() => refuseRepeatedIgnores([core(1), core(1)], new Set([1]))).not.toThrow();
  });

  it("finds a repeat among a site's many entries, wherever the site is listed", () => {
    const many: WireIgnore[] = Array.from({ length: 200 }, (_, i) => ({
      siteId: 2,
      kind: 'plugin',
      slug: `p${i}/p${i}.php`,
      versions: 'all',
      name: `p${i}/p${i}.php`,
    }));
    expect(() => refuseRepeatedIgnores([core(1), ...many, core(3)], ALL)).not.toThrow();
    const repeat = { ...(many[120] as WireIgnore) };
    for (const listed of [
      [...many, repeat],
      [core(1), ...many.slice(0, 130), core(3), ...many.slice(130), repeat],
    ]) {
      expect(() => refuseRepeatedIgnores(listed, ALL)).toThrow(
        expect.objectContaining({
          message: expect.stringMatching(/plugin p120\/p120.php of site 2 was listed twice$/),
        }),
      );
    }
  });

  it('refuses a repeat no global entry explains, and a third entry', () => {
    // Set through an ability on every site: no global list stores a plugin's slug as its name.
    const everySite = SITES.map(own);
    expect(() => refuseRepeatedIgnores([...everySite, own(2)], ALL)).toThrow(
      expect.objectContaining({
        code: 'INCOMPLETE_READ',
        message:
          "the dashboard's listing changed while it was read: ignore plugin jetpack/jetpack.php of site 2 was listed twice",
      }),
    );
    // Core ignored twice on site 1 while site 3 lists no such ignore: neither entry is global.
    expect(() => refuseRepeatedIgnores([core(1), core(1), own(3)], ALL)).toThrow(
      expect.objectContaining({ code: 'INCOMPLETE_READ' }),
    );
    // Read twice on site 1, and listed alike on every site that has ignores, but not on site 3
    // (which the dashboard lists too): a global entry would be listed there as well.
    const notOnSite3 = [core(1), core(1), core(2)];
    expect(() => refuseRepeatedIgnores(notOnSite3, ALL)).toThrow(
      expect.objectContaining({
        code: 'INCOMPLETE_READ',
        message: expect.stringMatching(/core wordpress of site 1 was listed twice$/),
      }),
    );
    const withGlobal = [...onEverySite(jetpack), own(2)];
    expect(() => refuseRepeatedIgnores([...withGlobal, own(2)], ALL)).toThrow(
      expect.objectContaining({ code: 'INCOMPLETE_READ', message: expect.stringMatching(/listed 3 times$/) }),
    );
  });
});

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe.each(['compat-6.1', 'spec'] as const)('a per-site ignore on every site (%s sandbox)', (profile) => {
  it('reads as per-site, and `unmanaged: remove` plans its unignore on every site', async () => {
    h = await openHarness({ profile });
    const client = h.client();
    const before = await client.readLive();
    for (const site of before.sites)
      await client.setIgnored({
        siteId: site.id,
        kind: 'plugin',
        direction: 'ignore',
        slugs: ['akismet/akismet.php'],
      });
    const live = await client.readLive();
    const akismet = live.ignores.filter((i) => i.slug === 'akismet/akismet.php');
    expect(akismet.map((i) => `${i.siteId}:${i.origin}`)).toEqual(['1:site', '2:site', '3:site', '4:site']);
    // The fleet's global ignore (set in the dashboard UI) is still told apart.
    expect(
      new Set(live.ignores.filter((i) => i.slug === 'hello-dolly/hello.php').map((i) => i.origin)),
    ).toEqual(new Set(['global']));

    const plan = createPlan(desiredState({ ignoreScope: 'remove' }), live, PLAN_OPTIONS);
    const unignores = plan.actions.filter((a) => a.op === 'unignore' && a.slug === 'akismet/akismet.php');
    // Sites 3 (offline) and 4 (suspended) get no actions; every connected site gets its unignore.
    expect(unignores.map((a) => a.site_id)).toEqual([1, 2]);
    expect(
      plan.notes.some((n) => n.message.includes('global ignore of') && n.message.includes('akismet')),
    ).toBe(false);
  });
});
