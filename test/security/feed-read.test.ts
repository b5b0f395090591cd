import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeWordfenceFeed } from '../../scripts/bench/security-feed-fixture.js';
import { createSplitter, readFeedFile } from '../../src/security/index.js';
import { svcError } from '../helpers/errors.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

const dir = tempDirForFile('svc-gitops-feed-');
const REPO = new URL('../../', import.meta.url).pathname;

const RECORD = (id: string, slug: string) => ({
  id,
  title: `${slug} XSS`,
  software: [
    {
      type: 'plugin',
      slug,
      affected_versions: {
        '1.0 - 1.2': { from_version: '1.0', from_inclusive: true, to_version: '1.2', to_inclusive: false },
      },
      patched: true,
      patched_versions: ['1.2'],
    },
    { type: 'library', slug: 'jquery', affected_versions: {} },
  ],
  cve: null,
  cvss: { score: '6.4', rating: 'Medium' },
  references: ['http://insecure.example/', 'https://www.wordfence.com/threat-intel/vulnerabilities/id/x'],
});

/** Escapes and braces inside strings must not confuse the splitter. */
const TRICKY = `{"a": ${JSON.stringify({ ...RECORD('a', 'one'), title: 'a "}{" \\\\ ] [ title' })} ,
 "b\\"}": ${JSON.stringify(RECORD('b', 'two'))}}\n`;

const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('reading a Wordfence feed, streamed', () => {
  it('splits records whatever the chunk boundaries', () => {
    const bytes = Buffer.from(TRICKY);
    const whole: unknown[] = [];
    const single = createSplitter((record) => whole.push(record));
    single.push(bytes);
    single.end();
    expect(whole).toEqual(Object.values(JSON.parse(TRICKY)));
    for (const size of [1, 2, 3, 7, 64]) {
      const records: unknown[] = [];
      const splitter = createSplitter((record) => records.push(record));
      for (let i = 0; i < bytes.length; i += size) splitter.push(bytes.subarray(i, i + size));
      splitter.end();
      expect(records, `chunks of ${size}`).toEqual(whole);
    }
  });

  it('turns records into advisories: only plugins, themes and core; cvss as a number; an https link', async () => {
    const read = await readFeedFile(write('tricky.json', TRICKY), 'wordfence');
    expect(read.records).toBe(2);
    expect(read.advisories[0]).toEqual({
      id: 'a',
      kind: 'plugin',
      slug: 'one',
      title: 'a "}{" \\\\ ] [ title',
      cvss: 6.4,
      link: 'https://www.wordfence.com/threat-intel/vulnerabilities/id/x',
      affected: [{ from: '1.0', fromInclusive: true, to: '1.2', toInclusive: false }],
      patched: ['1.2'],
    });
    expect(read.advisories.map((a) => a.slug)).toEqual(['one', 'two']);
  });

  it('reads a generated feed record by record', async () => {
    const path = join(dir, 'generated.json');
    const bytes = await writeWordfenceFeed(path, { records: 300, seed: 3 });
    const read = await readFeedFile(path, 'wordfence');
    expect(read.records).toBe(300);
    expect(read.bytes).toBe(bytes);
    expect(read.advisories).toHaveLength(300);
  });

  it('refuses a truncated feed, naming the file and the byte offset', async () => {
    const cut = TRICKY.slice(0, TRICKY.indexOf('"b\\"}"') + 20);
    const path = write('cut.json', cut);
    const error = await svcError(readFeedFile(path, 'wordfence'));
    expect(error.code).toBe('FEED_INVALID');
    expect(error.message).toBe(
      `${path}: byte ${Buffer.byteLength(cut)}: the feed ends at byte ${Buffer.byteLength(cut)} inside the record that starts at byte ${cut.indexOf('{"id":"b"')}: truncated; the feed was not used`,
    );
    const noEnd = write('no-end.json', TRICKY.trimEnd().slice(0, -1));
    expect((await svcError(readFeedFile(noEnd, 'wordfence'))).message).toContain(
      'before its closing `}`: truncated',
    );
  });

  it('refuses a malformed record, a bad frame and a record of the wrong shape, with the offset', async () => {
    const broken = TRICKY.replace('"title":"two XSS"', '"title":"two XSS" oops');
    const at = broken.indexOf('{"id":"b"');
    const error = await svcError(readFeedFile(write('broken.json', broken), 'wordfence'));
    expect(error.message).toContain(`broken.json: byte ${at}: the record starting here is not valid JSON`);
    const garbage = await svcError(readFeedFile(write('garbage.json', `${TRICKY}x`), 'wordfence'));
    expect(garbage.message).toContain(
      `byte ${Buffer.byteLength(TRICKY)}: unexpected \`x\` after the end of the feed`,
    );
    const shape = TRICKY.replace('"to_inclusive":false', '"to_inclusive":"no"');
    const wrong = await svcError(readFeedFile(write('shape.json', shape), 'wordfence'));
    expect(wrong.message).toContain(
      'shape.json: byte 6: affected_versions "1.0 - 1.2" lacks from_inclusive or to_inclusive',
    );
    const array = await svcError(readFeedFile(write('array.json', '[]'), 'wordfence'));
    expect(array.message).toContain('byte 0: expected `{` to open the feed, found `[`');
  });
});

describe('reading svc-gitops advisory files', () => {
  const example = join(REPO, 'examples/security/advisories.jsonl');

  it('reads the example: open ends default to `*`, ends to inclusive, core to `wordpress`', async () => {
    const read = await readFeedFile(example, 'svc');
    expect(read.advisories.map((a) => [a.kind, a.slug, a.affected, a.patched])).toEqual([
      ['plugin', 'akismet', [{ from: '*', fromInclusive: true, to: '5.3.6', toInclusive: true }], ['5.3.7']],
      [
        'core',
        'wordpress',
        [{ from: '6.4', fromInclusive: true, to: '6.4.3', toInclusive: false }],
        ['6.4.3'],
      ],
    ]);
  });

  it('refuses a file without its trailer (cut at a line break) or with a wrong count', async () => {
    const lines = readFileSync(example, 'utf8').split('\n');
    const cut = write('cut.jsonl', `${lines.slice(0, 2).join('\n')}\n`);
    expect((await svcError(readFeedFile(cut, 'svc'))).message).toContain('ends without its trailer');
    const miscount = write('count.jsonl', [lines[0], lines[1], '{"end":true,"count":2}', ''].join('\n'));
    const error = await svcError(readFeedFile(miscount, 'svc'));
    expect(error.message).toContain(
      `byte ${Buffer.byteLength(`${lines[0]}\n${lines[1]}\n`)}: the trailer counts 2 advisories, the file holds 1`,
    );
  });
});
