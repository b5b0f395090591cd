import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateChunkPaths, updatesPerSite } from '../../scripts/bench/harness.js';
import {
  generateFleet,
  IGNORED_PER_PAGE_MAX,
  type RunningSandbox,
  startSandbox,
} from '../../src/sandbox/index.js';
import type { Action, Plan } from '../../src/types.js';
import { cli } from '../helpers/cli.js';
import { PROFILES, REPO, resetStats, sandboxEnv, sandboxStats, tempDir } from './helpers.js';

const SITES = 10_000;
/** The interface's page sizes (spec §8, dashboard-facts §3.4): list-sites 100, list-updates 200. */
const SITES_PER_PAGE = 100;
const UPDATES_PER_PAGE = 200;
const LINE_LIMIT = 8192;
const UPDATES_RUN = '/wp-json/wp-abilities/v1/abilities/svc/list-updates-v1/run?';
const IGNORED_RUN = '/wp-json/wp-abilities/v1/abilities/svc/list-ignored-updates-v1/run';

/**
 * The fewest pieces `ids` can travel in as `input[site_ids_or_domains][]=ID` query parameters
 * of the ignored listing with every request line within 8 KiB, CRLF included as nginx counts it:
 * counted here from the request line's own form, not with the client's code.
 */
function minimumPieces(ids: number[]): number {
  const fixed = `GET ${IGNORED_RUN}? HTTP/1.1\r\n`.length;
  let pieces = 0;
  let line = Number.POSITIVE_INFINITY;
  for (const id of ids) {
    const parameter = `input[site_ids_or_domains][]=${id}`.length;
    if (line + 1 + parameter > LINE_LIMIT) {
      pieces++;
      line = fixed + parameter;
    } else {
      line += 1 + parameter;
    }
  }
  return pieces;
}

/**
 * `plan` and `plan --target` at fleet scale, end to end: a generated 10,000-site fleet (6 pending
 * and 3 ignored updates per site on average), the sandbox refusing request lines over 8 KiB as a
 * web server does. Each read must be complete, use the fewest requests the fleet and the
 * interface's page sizes allow, and send no request the web server refuses.
 */
describe.each(PROFILES)('a 10,000-site fleet behind the %s sandbox', (profile) => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let full: Plan;
  let totals: { updates: number; ignored: number; updateChunks: number };
  const plan = async (...argv: string[]) => {
    await resetStats(sandbox);
    const result = await cli(
      ['plan', '-c', 'examples/minimal.yaml', '--format', 'json', '--quiet', ...argv],
      {
        env,
        cwd: REPO,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const stats = await sandboxStats(sandbox);
    return { plan: JSON.parse(result.stdout) as Plan, stats, stderr: result.stderr };
  };
  const byAction = (a: Action) => `${a.site_id} ${a.op} ${a.kind} ${a.slug}`;

  beforeAll(async () => {
    const fleet = generateFleet({ sites: SITES, pendingPerSite: 6, ignoredPerSite: 3, seed: 2026 });
    sandbox = await startSandbox({ fleet, profile });
    env = sandboxEnv(sandbox, tempDir());
    // Listing sizes, as the dashboard reports them (one item a page).
    const auth = `Basic ${Buffer.from(`${sandbox.credentials.username}:${sandbox.credentials.applicationPassword}`).toString('base64')}`;
    const total = async (ability: string, paged: boolean) => {
      const query = paged ? '?input[page]=1&input[per_page]=1' : '';
      const response = await fetch(
        `${sandbox.url}/wp-json/wp-abilities/v1/abilities/svc/${ability}/run${query}`,
        {
          headers: { authorization: auth },
        },
      );
      return ((await response.json()) as { total: number }).total;
    };
    const counts = await updatesPerSite(async (page) => {
      const response = await fetch(
        `${sandbox.url}/wp-json/wp-abilities/v1/abilities/svc/list-updates-v1/run?input[page]=${page}&input[per_page]=${UPDATES_PER_PAGE}`,
        { headers: { authorization: auth } },
      );
      return (await response.json()) as { updates: Array<{ site_id: number }>; total: number };
    }, UPDATES_PER_PAGE);
    const ids = Array.from({ length: SITES }, (_, i) => i + 1);
    totals = {
      updates: await total('list-updates-v1', true),
      ignored: profile === 'spec' ? await total('list-ignored-updates-v1', true) : SITES * 3,
      updateChunks: updateChunkPaths(UPDATES_RUN, ids, counts, UPDATES_PER_PAGE, LINE_LIMIT).length,
    };
  });
  afterAll(() => sandbox.close());

  it('plans the whole fleet in the fewest requests, none refused', async () => {
    const { plan: result, stats } = await plan();
    full = result;
    const ids = Array.from({ length: SITES }, (_, i) => i + 1);
    const ignoredRequests =
      profile === 'spec' ? Math.ceil(totals.ignored / IGNORED_PER_PAGE_MAX) : minimumPieces(ids);
    // The site listing is one REST GET /sites (a REST key is set), never list-sites pages.
    expect(stats.abilities['svc/list-sites-v1']).toBeUndefined();
    expect(stats.requests['GET /sites']).toBe(1);
    expect(stats.abilities['svc/list-ignored-updates-v1']).toBe(ignoredRequests);
    // Updates in site chunks: the fewest chunks need every site's count beforehand, which no
    // listing tells; chunks sized from the measured counts come within 1.3 of it (1.23 here).
    const chunks = stats.abilities['svc/list-updates-v1'] ?? 0;
    expect(chunks).toBeGreaterThanOrEqual(totals.updateChunks);
    expect(chunks / totals.updateChunks).toBeLessThanOrEqual(1.3);
    expect(stats.requests['refused: too large']).toBeUndefined();
    expect(new Set(full.actions.map((a) => a.site_id)).size).toBeGreaterThan(9000);
  });

  it('--target one site reads that site only (plus the site listing) and plans it as the whole read did', async () => {
    const { plan: result, stats } = await plan('--target', '17');
    expect(stats.abilities).toEqual({
      'svc/list-updates-v1': 1,
      // The spec's ignored listing has no site filter: it is read whole, at the largest page.
      'svc/list-ignored-updates-v1':
        profile === 'spec' ? Math.ceil(totals.ignored / IGNORED_PER_PAGE_MAX) : 1,
    });
    expect(result.actions.map(byAction)).toEqual(full.actions.filter((a) => a.site_id === 17).map(byAction));
  });

  it('--target 3,000 sites splits the site list so every request line fits, and plans them as the whole read did', async () => {
    const targets = Array.from({ length: 3000 }, (_, i) => i * 3 + 2);
    const { plan: result, stats } = await plan('--target', ...targets.map(String));
    expect(stats.requests['refused: too large']).toBeUndefined();
    const wanted = new Set(targets);
    expect(result.actions.map(byAction)).toEqual(
      full.actions.filter((a) => wanted.has(a.site_id)).map(byAction),
    );
    if (profile === 'compat-6.1')
      expect(stats.abilities['svc/list-ignored-updates-v1']).toBe(minimumPieces(targets));
    // Fewer requests than the whole read needs.
    expect(stats.requests_total).toBeLessThan(
      SITES / SITES_PER_PAGE + Math.ceil(totals.updates / UPDATES_PER_PAGE),
    );
  });
});
