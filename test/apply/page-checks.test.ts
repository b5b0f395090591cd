import { describe, expect, it } from 'vitest';
import { checkPages, POOL, statusMatches } from '../../src/apply/page-checks.js';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import type { HealthPath } from '../../src/types.js';
import { sandboxPer } from '../helpers/sandbox.js';

/** The page checker's bounds, against the sandbox's site pages over loopback. */
const fleet = (count: number) =>
  `sites:\n${Array.from({ length: count }, (_, i) => `  - id: ${i + 1}\n    url: https://s${i + 1}.demo.test/`).join('\n')}\n`;
const page = (path: string): HealthPath => ({ path, status: ['2xx'], cacheBust: false });

describe('page checks, against the sandbox', () => {
  const sandbox = sandboxPer('suite', async () =>
    startSandbox({ fleet: parseFleet(fleet(12)), sitePages: true }),
  );
  const sites = async () => {
    const state = (await (await fetch(`${sandbox.url}/__sandbox/state`)).json()) as {
      sites: { id: number; url: string }[];
    };
    return state.sites.map(({ id, url }) => ({ id, url }));
  };
  const sandboxPut = (what: string, body: unknown) =>
    fetch(`${sandbox.url}/__sandbox/${what}`, { method: 'PUT', body: JSON.stringify(body) });

  it('never has more than the fixed pool of fetches open at once', async () => {
    await sandboxPut('faults', [{ kind: 'latency', route: '/__sites/', delayMs: 60 }]);
    await fetch(`${sandbox.url}/__sandbox/site-pages/reset`, { method: 'POST' });
    const problems = await checkPages(await sites(), { paths: [page('/'), page('/a/'), page('/b/')] });
    await sandboxPut('faults', []);
    expect(problems.size).toBe(0);
    const stats = (await (await fetch(`${sandbox.url}/__sandbox/site-pages`)).json()) as {
      requests: number;
      maxInFlight: number;
    };
    expect(stats.requests).toBe(36);
    expect(stats.maxInFlight).toBe(POOL);
  });

  it('pages not fetched within the budget fail, each naming its path', async () => {
    await sandboxPut('faults', [{ kind: 'latency', route: '/__sites/', delayMs: 400 }]);
    const problems = await checkPages(await sites(), { paths: [page('/'), page('/x/')], pathBudgetMs: 300 });
    await sandboxPut('faults', []);
    expect(problems.size).toBe(12);
    for (const problem of problems.values())
      expect(problem).toBe('page /: not checked within the page check budget of 0.3 s');
  });

  it('a site whose URL is not http(s) fails without quoting the URL', async () => {
    const problems = await checkPages([{ id: 7, url: 'ftp://user:secret@s7.test/' }], { paths: [page('/')] });
    expect(problems.get(7)).toBe("page /: the site's URL is not an http(s) URL");
  });

  it('statuses: codes, classes and ranges', () => {
    expect(statusMatches(200, ['200'])).toBe(true);
    expect(statusMatches(204, ['2xx'])).toBe(true);
    expect(statusMatches(302, ['300-399'])).toBe(true);
    expect(statusMatches(404, ['200-399', '5xx'])).toBe(false);
  });
});
