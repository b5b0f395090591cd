import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeWordfenceFeed } from '../../scripts/bench/security-feed-fixture.js';
import { fleetFeedItems } from '../../src/plan/index.js';
import { checkFeedSource, readFeedFile } from '../../src/security/index.js';
import type { SecurityConfig } from '../../src/types.js';
import { svcError } from '../helpers/errors.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/**
 * The prefilter that keeps a feed's memory flat: only the advisories of the fleet's items are
 * kept (a 160 MB feed holds ~42,500 records, a fleet's items name a small share), every record
 * is still checked, and the items come from the live state's pending updates.
 */
const dir = tempDirForFile('svc-gitops-feed-prefilter-');
const REPO = new URL('../../', import.meta.url).pathname;

interface FeedRecord {
  software: Array<{ type: string; slug: string }>;
}

describe('reading a feed with the fleet as the prefilter', () => {
  it('keeps exactly the records of the kept items and counts every record read', async () => {
    const path = join(dir, 'seeded.json');
    await writeWordfenceFeed(path, { records: 2_000, recordBytes: 600, seed: 5, fleetShare: 0.05 });
    const all = Object.values(JSON.parse(readFileSync(path, 'utf8')) as Record<string, FeedRecord>);
    const keep = fleetFeedItems({
      pending: [
        { kind: 'plugin', slug: 'plugin-7/plugin-7.php' },
        { kind: 'plugin', slug: 'plugin-8.php' },
        { kind: 'translation', slug: 'plugin-9' },
      ],
    });
    const expected = all.filter(({ software: [entry] }) =>
      ['plugin-7', 'plugin-8'].includes(entry!.slug),
    ).length;
    expect(expected).toBeGreaterThan(0);

    const read = await readFeedFile(path, 'wordfence', { keep });
    expect(read.records).toBe(2_000);
    expect(read.advisories).toHaveLength(expected);
    expect(new Set(read.advisories.map((a) => a.slug))).toEqual(new Set(['plugin-7', 'plugin-8']));
    // Without the prefilter every record's advisory is kept: the filter is what drops them.
    expect((await readFeedFile(path, 'wordfence')).advisories).toHaveLength(2_000);
  });

  it("maps the fleet's items to feed slugs: folders, single-file plugins, themes, core, installed", () => {
    const keep = fleetFeedItems({
      pending: [
        { kind: 'plugin', slug: 'akismet/akismet.php' },
        { kind: 'plugin', slug: 'hello.php' },
        { kind: 'core', slug: 'wordpress' },
        { kind: 'translation', slug: 'twentytwenty' },
      ],
      hidden: [{ kind: 'theme', slug: 'astra' }],
      installed: [{ kind: 'plugin', slug: 'classic-editor/classic-editor.php' }],
    });
    // Installed with no pending update (security.installed): judged, so kept.
    expect(keep('plugin', 'classic-editor')).toBe(true);
    expect(keep('plugin', 'akismet')).toBe(true);
    expect(keep('plugin', 'hello')).toBe(true);
    expect(keep('core', 'wordpress')).toBe(true);
    expect(keep('theme', 'astra')).toBe(true);
    expect(keep('theme', 'akismet')).toBe(false);
    expect(keep('theme', 'twentytwenty')).toBe(false);
    expect(keep('plugin', 'jetpack')).toBe(false);
  });

  it('still refuses a feed whose broken record names an item the fleet does not have', async () => {
    const broken = {
      id: 'x',
      software: [
        { type: 'plugin', slug: 'not-installed', affected_versions: { a: { from_version: '1.0' } } },
      ],
    };
    const path = join(dir, 'broken.json');
    writeFileSync(path, JSON.stringify({ x: broken }));
    const keep = fleetFeedItems({ pending: [{ kind: 'plugin', slug: 'akismet/akismet.php' }] });
    const error = await svcError(readFeedFile(path, 'wordfence', { keep }));
    expect(error.code).toBe('FEED_INVALID');
    expect(error.message).toContain('lacks from_version or to_version');
  });

  it('applies to svc-gitops advisory files too; the trailer counts every advisory', async () => {
    const example = join(REPO, 'examples/security/advisories.jsonl');
    const keep = fleetFeedItems({ pending: [{ kind: 'core', slug: 'wordpress' }] });
    const read = await readFeedFile(example, 'svc', { keep });
    expect(read.records).toBe(2);
    expect(read.advisories.map((a) => a.slug)).toEqual(['wordpress']);
  });

  it('refuses a missing feed file or API key before anything is read', () => {
    const base = {
      refreshAfter: { text: '1h', ms: 3_600_000 },
      maxAge: { text: '2d', ms: 172_800_000 },
      bypass: { soak: true, window: true },
      approval: { coreNeedsApproval: true, majorNeedsApproval: true },
      sourceRef: { file: 'svc-gitops.yaml', line: 1, col: 1, path: '/security' },
    };
    const file: SecurityConfig = {
      ...base,
      source: { type: 'file', path: join(dir, 'missing.json'), format: 'wordfence' },
    };
    expect(() => checkFeedSource(file, undefined)).toThrow(/cannot read the feed .*missing\.json/);
    const download: SecurityConfig = {
      ...base,
      source: { type: 'wordfence', feed: 'production', url: 'https://feed.example/v3' },
    };
    expect(() => checkFeedSource(download, undefined)).toThrow(/needs an API key/);
    expect(() => checkFeedSource(download, 'key')).not.toThrow();
  });
});
