/**
 * Security updates end to end: the real CLI against the sandbox, which serves a Wordfence-shaped
 * feed (written here) behind an API key. akismet 5.3.6 is vulnerable and fixed in 5.3.7 (sites
 * 1-4); contact-form-7 5.0 is vulnerable with no fix released (sites 5-6, which can move to
 * 5.1, still affected); classic-editor's update is routine. The policy soaks versions for 7
 * days inside a window closed at T0 (11:00 in Berlin); two waves with health checks.
 */
export const FLEET = `sites:
${[1, 2, 3, 4, 5, 6]
  .map((id) => {
    const plugin =
      id <= 4 ? 'akismet/akismet.php: 5.3.6 -> 5.3.7' : 'contact-form-7/wp-contact-form-7.php: 5.0 -> 5.1';
    return `  - id: ${id}\n    url: https://site-${id}.demo.test/\n    plugins:\n      ${plugin}\n      classic-editor/classic-editor.php: 1.6 -> 1.6.1`;
  })
  .join('\n')}
`;

export const API_KEY = 'wf-key-Zq83NNxK2mVb7Tq';

export const RECORDS = {
  'a1b2c3d4-0000-4000-8000-000000000001': {
    id: 'a1b2c3d4-0000-4000-8000-000000000001',
    title: 'Akismet <= 5.3.6 - Stored Cross-Site Scripting',
    software: [
      {
        type: 'plugin',
        name: 'Akismet',
        slug: 'akismet',
        affected_versions: {
          '* - 5.3.6': { from_version: '*', from_inclusive: true, to_version: '5.3.6', to_inclusive: true },
        },
        patched: true,
        patched_versions: ['5.3.7'],
      },
    ],
    cve: 'CVE-2026-11111',
    cvss: { vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 9.8, rating: 'Critical' },
    references: ['https://www.wordfence.com/threat-intel/vulnerabilities/id/a1b2c3d4'],
  },
  'a1b2c3d4-0000-4000-8000-000000000002': {
    id: 'a1b2c3d4-0000-4000-8000-000000000002',
    title: 'Contact Form 7 <= 5.1 - Unauthenticated File Upload',
    software: [
      {
        type: 'plugin',
        slug: 'contact-form-7',
        affected_versions: {
          '* - 5.1': { from_version: '*', from_inclusive: true, to_version: '5.1', to_inclusive: true },
        },
        patched: false,
        patched_versions: [],
      },
    ],
    cve: 'CVE-2026-22222',
    cvss: { score: 7.5, rating: 'High' },
    references: [],
  },
};

export const config = (feedUrl: string) => `version: 1
updates:
  - name: plugins
    sites: [all]
    kinds: [plugins]
    max: minor
    min_release_age: 7d
    window: {schedule: '* 22-23 * * *', timezone: Europe/Berlin}
rollout:
  health: {}
  waves:
    - {name: canary, sites: [1, 2]}
    - {name: everyone, sites: [all]}
security:
  feed: {wordfence: production, url: '${feedUrl}'}
`;

/** Has the sandbox serve `records` as its Wordfence-shaped feed behind API_KEY. */
export async function putFeed(sandboxUrl: string, records: Record<string, unknown> = RECORDS): Promise<void> {
  const stored = await fetch(`${sandboxUrl}/__sandbox/vulnerability-feed`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ records, api_key: API_KEY }),
  });
  if (stored.status !== 200) throw new Error(`the sandbox refused the feed: HTTP ${stored.status}`);
}
