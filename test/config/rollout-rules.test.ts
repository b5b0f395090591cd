import { describe, expect, it } from 'vitest';
import { doc, errors, loadText } from './helpers.js';

const policy = (extra: string) =>
  doc(`updates:\n  - name: nightly\n    sites: [all]\n    max: minor\n${extra}`);

async function diagnosticsOf(text: string) {
  return (await loadText(text)).diagnostics;
}

describe('rollout additions to the desired state', () => {
  it('reads windows, soak times, health and wave gates into the desired state', async () => {
    const { desired, diagnostics } = await loadText(
      doc(`updates:
  - name: nightly
    sites: [all]
    max: minor
    min_release_age: 3d
    window: {schedule: '* 22-23 * * *', timezone: Europe/Berlin}
rollout:
  health: {response_time_factor: 2.5}
  waves:
    - {name: canary, sites: [1]}
    - {name: rest, sites: [all], max_unhealthy: 2, after: {wave: canary, healthy_for: 24h}, window: {schedule: ['* 1 * * *', '* 2 * * sat'], timezone: UTC}}
`),
    );
    expect(diagnostics).toEqual([]);
    expect(desired?.policies[0]).toMatchObject({
      minReleaseAge: { text: '3d', ms: 3 * 86_400_000 },
      window: { schedule: ['* 22-23 * * *'], timezone: 'Europe/Berlin' },
    });
    expect(desired?.health).toEqual({ status: ['2xx', '3xx'], responseTimeFactor: 2.5, maxUnhealthy: 0 });
    expect(desired?.waves[1]).toMatchObject({
      maxUnhealthy: 2,
      after: { wave: 'canary', healthyFor: { text: '24h', ms: 86_400_000 } },
      window: { schedule: ['* 1 * * *', '* 2 * * sat'], timezone: 'UTC' },
    });
  });

  it('reports a bad cron expression at the expression, with a hint', async () => {
    const found = errors(
      await diagnosticsOf(policy("    window: {schedule: ['* 22-23 * * *', '* 25 * * *'], timezone: UTC}\n")),
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      rule: 'bad-cron',
      path: '/updates/0/window/schedule/1',
      line: 6,
      message: 'cron `* 25 * * *`: hour 25 is outside 0-23',
    });
  });

  it('refuses a window that restricts minutes, naming the fix', async () => {
    const [d] = errors(await diagnosticsOf(policy("    window: {schedule: '0 2 * * *', timezone: UTC}\n")));
    expect(d).toMatchObject({ rule: 'bad-cron', path: '/updates/0/window/schedule' });
    expect(d?.hint).toContain('`* 2 * * *`');
  });

  it('reports an unknown time zone at the zone, suggesting a near one', async () => {
    const [d] = errors(
      await diagnosticsOf(policy("    window: {schedule: '* 2 * * *', timezone: Europe/Berln}\n")),
    );
    expect(d).toMatchObject({
      rule: 'unknown-zone',
      path: '/updates/0/window/timezone',
      line: 6,
      message: 'unknown time zone `Europe/Berln`',
      hint: 'did you mean `Europe/Berlin`?',
    });
  });

  it('reports an unknown or later wave in `after`, at the name', async () => {
    const waves = (after: string) =>
      doc(
        `rollout:\n  waves:\n    - {name: canary, sites: [1]}\n    - {name: early, sites: [2], after: {wave: ${after}, healthy_for: 1d}}\n    - {name: late, sites: [all]}\n`,
      );
    const [typo] = errors(await diagnosticsOf(waves('canry')));
    expect(typo).toMatchObject({
      rule: 'unknown-wave',
      path: '/rollout/waves/1/after/wave',
      line: 5,
      message: 'wave `early` starts after unknown wave `canry`',
      hint: 'did you mean `canary`?',
    });
    const [later] = errors(await diagnosticsOf(waves('late')));
    expect(later?.message).toBe('wave `early` starts after `late`, which is not an earlier wave');
    expect(later?.hint).toBe('name one of the waves before it: `canary`');
  });

  it('checks durations and health values with the schema, located', async () => {
    const bad = errors(await diagnosticsOf(policy('    min_release_age: 3 days\n')));
    expect(bad[0]).toMatchObject({ rule: 'schema', path: '/updates/0/min_release_age', line: 6 });
    const health = errors(await diagnosticsOf(doc('rollout:\n  health: {status: [200, 5x]}\n')));
    expect(health.length).toBeGreaterThan(0);
    expect(health[0]?.path).toMatch(/^\/rollout\/health\/status\/[01]$/);
  });

  it('reads page health checks, and refuses a sixth page or a path without its slash', async () => {
    const { desired, diagnostics } = await loadText(
      doc(`rollout:
  health:
    timeout_seconds: 5
    budget_seconds: 60
    paths:
      - {path: /, not_contains: Fatal error, cache_bust: true}
      - {path: /shop/, status: [200, 300-399], contains: site-footer}
`),
    );
    expect(diagnostics).toEqual([]);
    expect(desired?.health).toEqual({
      status: ['2xx', '3xx'],
      maxUnhealthy: 0,
      pathTimeoutMs: 5000,
      pathBudgetMs: 60_000,
      paths: [
        { path: '/', status: ['2xx'], notContains: 'Fatal error', cacheBust: true },
        { path: '/shop/', status: ['200', '300-399'], contains: 'site-footer', cacheBust: false },
      ],
    });
    const six = Array.from({ length: 6 }, (_, i) => `{path: /p${i}/}`).join(', ');
    const tooMany = errors(await diagnosticsOf(doc(`rollout:\n  health: {paths: [${six}]}\n`)));
    expect(tooMany[0]?.path).toBe('/rollout/health/paths');
    const slashless = errors(await diagnosticsOf(doc('rollout:\n  health: {paths: [{path: shop}]}\n')));
    expect(slashless[0]?.path).toMatch(/^\/rollout\/health\/paths\/0/);
  });
});
