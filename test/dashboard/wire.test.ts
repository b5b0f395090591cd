import { describe, expect, it } from 'vitest';
import { bracketQuery } from '../../src/dashboard/abilities/query.js';
import { collisionFreeGroups } from '../../src/dashboard/abilities/run-updates.js';
import { assembleLive } from '../../src/dashboard/live/assemble.js';
import { classifyIgnores } from '../../src/dashboard/live/origins.js';
import { readAllPages } from '../../src/dashboard/live/paging.js';
import { parseJson } from '../../src/dashboard/wire/json.js';
import { parseIgnoredListing, parseSitesPage, parseUpdatesPage } from '../../src/dashboard/wire/reads.js';
import {
  parseRestIgnored,
  parseRestSites,
  parseRestUpdates,
  restData,
} from '../../src/dashboard/wire/rest-reads.js';
import { parseBatchAction, parseRunResponse, parseSuccess } from '../../src/dashboard/wire/writes.js';
import { SvcError } from '../../src/errors.js';

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof SvcError) return `${error.code}: ${error.message}`;
    throw error;
  }
  return 'no error';
}

const entry = {
  site_id: 3,
  site_url: 'https://a.example.test/',
  site_name: 'a.example.test',
  type: 'plugin',
  slug: 'akismet%2Fakismet.php',
  name: 'Akismet',
  current_version: '5.3.6',
  new_version: '5.3.7',
};

describe('bracket query', () => {
  it('writes PHP bracket form with booleans as 1/0', () => {
    expect(
      bracketQuery({ site_ids_or_domains: [1, 'example.com'], types: ['plugins'], page: 2, dry: false }),
    ).toBe(
      'input[site_ids_or_domains][]=1&input[site_ids_or_domains][]=example.com&input[types][]=plugins&input[page]=2&input[dry]=0',
    );
  });
  it('refuses empty arrays, which a query cannot express', () => {
    expect(codeOf(() => bracketQuery({ types: [] }))).toMatch(/^INTERNAL/);
  });
});

describe('tolerant reads', () => {
  it('decodes slugs and reads update pages with errors[]', () => {
    const page = parseUpdatesPage(
      {
        updates: [entry],
        total: 1,
        errors: [
          { site_id: 0, site_url: '999', code: 'svc_site_not_found', message: 'No site found with ID 999.' },
        ],
      },
      'ability svc/list-updates-v1',
    );
    expect(page.updates[0]).toMatchObject({
      siteId: 3,
      kind: 'plugin',
      slug: 'akismet/akismet.php',
      from: '5.3.6',
      to: '5.3.7',
    });
    expect(page.errors[0]).toMatchObject({ siteId: 999, code: 'svc_site_not_found' });
  });

  it('names the ability and field of an unexpected shape', () => {
    expect(
      codeOf(() =>
        parseUpdatesPage({ updates: [{ ...entry, site_id: 'x' }], total: 1 }, 'ability svc/list-updates-v1'),
      ),
    ).toBe(
      'BAD_RESPONSE: ability svc/list-updates-v1: field "updates[0].site_id" should be an integer, got a string',
    );
    expect(codeOf(() => parseUpdatesPage({ total: 1 }, 'ability svc/list-updates-v1'))).toContain(
      '"updates"',
    );
    expect(
      codeOf(() => parseSitesPage({ items: [{ id: 1, url: 'https://x/', status: 'weird' }], total: 1 }, 'w')),
    ).toContain('items[0].status');
  });

  it('does not take inherited members for fields', () => {
    expect(codeOf(() => parseUpdatesPage({ updates: [], total: 0, constructor: 1 }, 'w'))).toBe('no error');
    expect(
      codeOf(() =>
        parseSitesPage({ items: [{ id: 1, url: 'https://x', status: 'connected', toString: 1 }] }, 'w'),
      ),
    ).toContain('"total"');
  });

  it('reads ignored versions as all or a sorted list', () => {
    const listing = parseIgnoredListing(
      {
        ignored: [
          { site_id: 1, type: 'plugin', slug: 'a/a.php', ignored_version: 'all_versions' },
          { site_id: 1, type: 'core', slug: 'wordpress', ignored_version: '6.9,6.8.3' },
        ],
        total: 2,
      },
      'w',
    );
    expect(listing.ignored.map((i) => i.versions)).toEqual(['all', ['6.8.3', '6.9']]);
  });

  it('classifies ignores listed on every site as global and adds site flags', () => {
    const listed = [1, 2, 3].flatMap((siteId) => [
      { siteId, kind: 'plugin' as const, slug: 'g/g.php', versions: 'all' as const },
      ...(siteId === 2 ? [{ siteId, kind: 'theme' as const, slug: 'astra', versions: 'all' as const }] : []),
    ]);
    const out = classifyIgnores(
      listed,
      new Map([[3, { core: true, plugin: false, theme: false }]]),
      new Set([1, 2, 3]),
    );
    expect(out.filter((i) => i.origin === 'global')).toHaveLength(3);
    expect(out.find((i) => i.slug === 'astra')?.origin).toBe('site');
    expect(out.find((i) => i.origin === 'site-flag')).toEqual({
      siteId: 3,
      kind: 'core',
      slug: '*',
      versions: 'all',
      origin: 'site-flag',
    });
    expect(
      classifyIgnores(
        listed.filter((i) => i.siteId === 1),
        new Map(),
        new Set([1]),
      )[0]?.origin,
    ).toBe('site');
  });

  it('reads every REST update shape: map, flat list and numeric-key object', () => {
    const map = parseRestUpdates(
      {
        '7': {
          wp: { current: '6.8.1', new: '6.9' },
          plugins: {
            'akismet%2Fakismet.php': { Name: 'Akismet', Version: '5.3', update: { new_version: '5.4' } },
          },
          themes: [],
          translations: [{ type: 'plugin', slug: 'akismet', language: 'de_DE', version: '5.3' }],
        },
      },
      'REST GET /updates',
    );
    expect(map.map((u) => `${u.kind}:${u.slug}:${u.from}->${u.to}`)).toEqual([
      'core:wordpress:6.8.1->6.9',
      'plugin:akismet/akismet.php:5.3->5.4',
      'translation:akismet:5.3->',
    ]);
    expect(parseRestUpdates([entry], 'w')).toHaveLength(1);
    expect(parseRestUpdates({ '0': entry, '2': entry }, 'w')).toHaveLength(2);
    expect(parseRestUpdates({ '5': { wp: true, plugins: [], themes: [], translations: [] } }, 'w')).toEqual(
      [],
    );
    expect(
      parseRestIgnored(
        4,
        { plugins: { 'x/x.php': { Name: 'X', ignored_versions: ['all_versions'] } }, themes: { t: 'T' } },
        'w',
      ),
    ).toEqual([
      { siteId: 4, kind: 'plugin', slug: 'x/x.php', versions: 'all' },
      { siteId: 4, kind: 'theme', slug: 't', versions: 'all' },
    ]);
  });
});

describe('malformed reads are refused, never read as less', () => {
  it('refuses a version sent as a number with a fraction (6.10 would be read as 6.1)', () => {
    expect(
      codeOf(() => parseUpdatesPage({ updates: [{ ...entry, new_version: 6.1 }], total: 1 }, 'w')),
    ).toMatch(/^BAD_RESPONSE: .*new_version.*should be a string/);
    expect(parseUpdatesPage({ updates: [{ ...entry, slug: 2024 }], total: 1 }, 'w').updates[0]?.slug).toBe(
      '2024',
    );
  });

  it('refuses a REST plugin or theme update without a target version, as the abilities listing does', () => {
    const site = (entry: Record<string, unknown>) => ({
      '7': { plugins: [], themes: [], translations: [], ...entry },
    });
    const plugin = { 'a%2Fa.php': { Name: 'A', Version: '1.0', update: { new_version: '' } } };
    expect(codeOf(() => parseRestUpdates(site({ plugins: plugin }), 'w'))).toMatch(
      /^BAD_RESPONSE: .*new_version.*a version/,
    );
    expect(
      codeOf(() => parseRestUpdates(site({ themes: { t: { Version: '1', new_version: '' } } }), 'w')),
    ).toMatch(/^BAD_RESPONSE/);
    // Core with an empty `new` is the dashboard's "no core update" (wp may also be [] or true).
    expect(parseRestUpdates(site({ wp: { current: '6.8', new: '' } }), 'w')).toEqual([]);
    expect(
      codeOf(() => parseUpdatesPage({ updates: [{ ...entry, new_version: '' }], total: 1 }, 'w')),
    ).toMatch(/^BAD_RESPONSE/);
  });

  it('refuses a REST body without data, and data of the wrong kind, instead of an empty listing', () => {
    const fatal = {
      code: 'internal_server_error',
      message: 'There has been a critical error on this website.',
    };
    expect(codeOf(() => restData(fatal, 'REST GET /updates'))).toMatch(/^BAD_RESPONSE: .*"data"/);
    expect(codeOf(() => parseRestUpdates('Array', 'REST GET /updates'))).toMatch(/^BAD_RESPONSE/);
    expect(codeOf(() => parseRestUpdates(42, 'REST GET /updates'))).toMatch(/^BAD_RESPONSE/);
    expect(codeOf(() => parseRestSites(true, 'REST GET /sites'))).toMatch(/^BAD_RESPONSE/);
    expect(
      codeOf(() => parseRestUpdates({ '5': { plugins: [], themes: [], translations: 'x' } }, 'w')),
    ).toMatch(/^BAD_RESPONSE/);
    expect(parseRestSites(null, 'w')).toEqual([]);
    expect(restData({ success: 1, data: null }, 'w')).toBeNull();
  });
});

describe('tolerant writes', () => {
  it('reads success as true/false or 1/0', () => {
    expect(parseSuccess({ success: 1, message: 'ok' }, 'w').ok).toBe(true);
    expect(parseSuccess({ success: false, message: 'No plugins were ignored.' }, 'w')).toEqual({
      ok: false,
      message: 'No plugins were ignored.',
    });
    expect(codeOf(() => parseSuccess({ success: 'maybe' }, 'w'))).toMatch(/^BAD_RESPONSE/);
  });

  it('reads immediate, slim and queued run responses', () => {
    const immediate = parseRunResponse(
      { updated: [{ ...entry, old_version: '5.3.6' }], errors: [], summary: {} },
      'w',
    );
    expect(immediate).toMatchObject({
      queued: false,
      updated: [{ siteId: 3, slug: 'akismet/akismet.php', from: '5.3.6' }],
    });
    const slim = parseRunResponse(
      {
        dry_run: false,
        updated: [{ site_id: 3, type: 'plugin', slug: 'a/a.php', success: false }],
        errors: [],
      },
      'w',
    );
    expect(slim).toMatchObject({ queued: false, updated: [], errors: [{ siteId: 3, slug: 'a/a.php' }] });
    expect(
      parseRunResponse(
        { queued: true, job_id: 'update_1', status_url: 'x', updates_queued: 300, errors: [] },
        'w',
      ),
    ).toEqual({
      queued: true,
      jobId: 'update_1',
      errors: [],
      skipped: [],
    });
    // The next release's skipped[] items are read, reasons kept as sent.
    const skipped = parseRunResponse(
      {
        dry_run: false,
        updated: [],
        errors: [],
        skipped: [{ site_id: 2, type: 'theme', slug: 'astra', reason: 'ignored_site_flag' }],
      },
      'w',
    );
    expect(skipped.skipped).toEqual([
      { siteId: 2, kind: 'theme', slug: 'astra', reason: 'ignored_site_flag' },
    ]);
  });

  it('reads every batch result variant', () => {
    const items = parseBatchAction(
      {
        sites: {
          sync: [
            { success: 1, data: {} },
            { id: 9, error: { code: 'bad', message: 'nope' } },
            { success: 0, error: 'down' },
          ],
        },
      },
      'w',
      'sites',
      'sync',
    );
    expect(items.map((i) => [i.siteId, i.ok, i.code])).toEqual([
      [undefined, true, 'ok'],
      [9, false, 'bad'],
      [undefined, false, 'sync_failed'],
    ]);
    expect(parseBatchAction([], 'w', 'sites', 'sync')).toEqual([]);
  });

  it('splits run groups whose slugs could collide across kinds', () => {
    const groups = collisionFreeGroups([
      { kind: 'plugin', slug: 'a/a.php' },
      { kind: 'theme', slug: 'astra' },
      { kind: 'translation', slug: 'default' },
      { kind: 'core', slug: 'wordpress' },
    ]);
    expect(groups.map((g) => g.map((i) => i.kind))).toEqual([['plugin', 'theme'], ['translation'], ['core']]);
  });
});

describe('paging', () => {
  it('reads all pages or fails: a short page is INCOMPLETE_READ', async () => {
    const data = Array.from({ length: 5 }, (_, i) => i);
    const ok = await readAllPages('x', 2, async (page) => ({
      items: data.slice((page - 1) * 2, page * 2),
      total: 5,
    }));
    expect(ok).toEqual(data);
    await expect(
      readAllPages('x', 2, async (page) => ({
        items: page === 2 ? [2] : data.slice((page - 1) * 2, page * 2),
        total: 5,
      })),
    ).rejects.toMatchObject({ code: 'INCOMPLETE_READ' });
    await expect(
      readAllPages('x', 2, async (page) => ({
        items: data.slice((page - 1) * 2, page * 2),
        total: page === 1 ? 5 : 6,
      })),
    ).rejects.toMatchObject({
      code: 'INCOMPLETE_READ',
    });
  });

  it('refuses a total page 1 contradicts, or an absurd one, before asking for more pages', async () => {
    const asked: number[] = [];
    const short = readAllPages('x', 200, async (page) => {
      asked.push(page);
      return { items: [1, 2, 3], total: 2_000_000 };
    });
    await expect(short).rejects.toMatchObject({ code: 'INCOMPLETE_READ' });
    expect(asked).toEqual([1]);
    const huge = readAllPages('x', 200, async () => ({ items: Array(200).fill(0), total: 1e15 }));
    await expect(huge).rejects.toMatchObject({ code: 'INCOMPLETE_READ', message: /at most 100000 pages/ });
  });

  it('parses JSON without prototype pollution', () => {
    const value = parseJson('{"__proto__":{"x":1},"k":[{"__proto__":{"y":2}}]}', 'w') as Record<
      string,
      unknown
    >;
    expect(Object.hasOwn(value, '__proto__')).toBe(false);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    // An escaped key slips past the cheap pre-check; it stays an inert own property.
    const escaped = parseJson(
      '{"updates":[{"\\u005f_proto__":{"polluted":1},"site_id":1,"type":"plugin","slug":"a/a.php","name":"A","current_version":"1","new_version":"2"}],"total":1}',
      'w',
    );
    expect(parseUpdatesPage(escaped, 'w').updates[0]).toEqual({
      siteId: 1,
      kind: 'plugin',
      slug: 'a/a.php',
      name: 'A',
      from: '1',
      to: '2',
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('assembling the live state', () => {
  const base = {
    dashboardUrl: 'https://d.example.test',
    sites: [{ id: 1, url: 'https://a.example.test/', name: 'a', status: 'connected' as const }],
    ignores: [],
    errors: [],
    capabilities: {
      surface: 'abilities' as const,
      canUnignore: true,
      canIgnore: true,
      canIgnoreCore: true,
      queueThreshold: 200,
    },
  };
  const update = (kind: 'plugin' | 'translation', slug: string, from = '1') => ({
    siteId: 1,
    kind,
    slug,
    name: slug,
    from,
    to: kind === 'plugin' ? '2' : '',
  });

  it('keeps one translation per site and slug, the lowest move, whatever order the languages came in', () => {
    const languages = [update('translation', 'x', '6.8.3'), update('translation', 'x', '6.8.1')];
    for (const translations of [languages, [...languages].reverse()]) {
      const live = assembleLive({
        ...base,
        updates: [translations[0]!, update('plugin', 'a/a.php'), translations[1]!],
      });
      expect(live.pending.map((p) => `${p.kind}:${p.from}`)).toEqual(['plugin:1', 'translation:6.8.1']);
    }
  });

  it('orders by site, kind and slug whatever order the dashboard used', () => {
    const at = (siteId: number, kind: 'plugin' | 'core', slug: string) => ({
      siteId,
      kind,
      slug,
      name: slug,
      from: '1',
      to: '2',
    });
    const inOrder = [at(1, 'plugin', 'b/b.php'), at(1, 'core', 'wordpress'), at(2, 'plugin', 'a/a.php')];
    const shuffled = [at(2, 'plugin', 'a/a.php'), at(1, 'plugin', 'b/b.php'), at(1, 'core', 'wordpress')];
    const expected = ['1:core:wordpress', '1:plugin:b/b.php', '2:plugin:a/a.php'];
    const sites = [
      ...base.sites,
      { id: 2, url: 'https://b.example.test/', name: 'b', status: 'connected' as const },
    ];
    for (const updates of [inOrder, shuffled]) {
      expect(
        assembleLive({ ...base, sites, updates }).pending.map((p) => `${p.siteId}:${p.kind}:${p.slug}`),
      ).toEqual(expected);
    }
  });

  it('refuses an item listed twice: the listing shifted and something else was missed', () => {
    expect(() =>
      assembleLive({ ...base, updates: [update('plugin', 'a/a.php'), update('plugin', 'a/a.php')] }),
    ).toThrow(expect.objectContaining({ code: 'INCOMPLETE_READ' }));
    expect(() => assembleLive({ ...base, sites: [...base.sites, ...base.sites], updates: [] })).toThrow(
      expect.objectContaining({ code: 'INCOMPLETE_READ' }),
    );
  });
});
