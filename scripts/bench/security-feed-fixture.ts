/**
 * A generated vulnerability feed in the Wordfence Intelligence v3 shape, from a seeded PRNG:
 * `records` records (the real feed: ~42,500 in ~160 MB), each padded with description text to
 * about `recordBytes`, written streamed so generating 160 MB costs no memory either. A share of
 * the records (`fleetShare`) names the plugins of the reference fleet (scripts/bench/fixtures.ts,
 * whose PRNG and plugin names this reuses), so matching finds advisories, fixed and unfixed, on it.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { FLEET_PLUGINS, fleetPluginFolder, prng } from './fixtures.js';

export interface FeedFixtureOptions {
  records: number;
  seed?: number;
  /** Approximate bytes of one record (the real feed averages ~3,800). */
  recordBytes?: number;
  /** Share of records about the reference fleet's plugins (default 0.01: ~2 per fleet plugin). */
  fleetShare?: number;
  /** Share of records whose affected range reaches the fleet's versions (default 0.2). */
  recentShare?: number;
}

const WORDS =
  'an authenticated attacker with contributor level access could inject arbitrary web scripts in pages that execute whenever a user accesses an injected page due to insufficient input sanitization and output escaping'.split(
    ' ',
  );

/** One record as the feed writes it: `"<id>": {…}`. */
export function* wordfenceRecords(options: FeedFixtureOptions): Generator<string> {
  const random = prng(options.seed ?? 7);
  const pick = (n: number) => Math.floor(random() * n);
  const share = options.fleetShare ?? 0.01;
  const target = options.recordBytes ?? 3800;
  for (let i = 0; i < options.records; i++) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const fleet = random() < share;
    const slug = fleet ? fleetPluginFolder(pick(FLEET_PLUGINS)) : `other-plugin-${pick(20_000)}`;
    // Most advisories affect versions long superseded (the reference fleet runs 1.x to 5.x);
    // `recentShare` of them reach into the versions a fleet runs.
    const recent = random() < (options.recentShare ?? 0.2);
    const major = recent ? 1 + pick(5) : 0;
    const minor = pick(10);
    const patch = pick(20);
    const fixed = random() < 0.85;
    const to = `${major}.${minor}.${patch}`;
    const record = {
      id,
      title: `${slug} <= ${to} - Cross-Site Scripting`,
      software: [
        {
          type: random() < 0.9 ? 'plugin' : 'theme',
          name: slug,
          slug,
          affected_versions: {
            [`* - ${to}`]: { from_version: '*', from_inclusive: true, to_version: to, to_inclusive: true },
          },
          patched: fixed,
          patched_versions: fixed ? [`${major}.${minor}.${patch + 1}`] : [],
          remediation: fixed
            ? `Update to version ${major}.${minor}.${patch + 1}, or a newer patched version`
            : 'No known patch available.',
        },
      ],
      informational: false,
      description: '',
      references: [`https://www.wordfence.com/threat-intel/vulnerabilities/id/${id}?source=api-prod`],
      cwe: { id: 79, name: 'Improper Neutralization of Input During Web Page Generation', description: '' },
      cvss: {
        vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:L/I:L/A:N',
        score: Math.round(random() * 100) / 10,
        rating: 'Medium',
      },
      cve: random() < 0.9 ? `CVE-2026-${10_000 + i}` : null,
      cve_link: `https://www.cve.org/CVERecord?id=CVE-2026-${10_000 + i}`,
      researchers: ['A Researcher'],
      published: '2026-01-01 00:00:00',
      updated: '2026-01-02 00:00:00',
      copyrights: { message: 'This record contains material that is 2026 copyright Defiant Inc.' },
    };
    let text = JSON.stringify(record, null, 2);
    const words: string[] = [];
    for (let room = target - text.length; room > 0; ) {
      const word = WORDS[pick(WORDS.length)]!;
      words.push(word);
      room -= word.length + 1;
    }
    record.description = words.join(' ');
    text = JSON.stringify(record, null, 2);
    yield `${JSON.stringify(id)}: ${text}`;
  }
}

/** Writes the whole feed to `path`, streamed; resolves to its size in bytes. */
export async function writeWordfenceFeed(path: string, options: FeedFixtureOptions): Promise<number> {
  const out = createWriteStream(path);
  let bytes = 0;
  const write = async (text: string) => {
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('{\n');
  let first = true;
  for (const record of wordfenceRecords(options)) {
    await write(`${first ? '' : ',\n'}${record}`);
    first = false;
  }
  await write('\n}\n');
  out.end();
  await once(out, 'finish');
  return bytes;
}
