import type { DashboardClient, SiteCheck } from '../dashboard/client.js';
import { describeMove, siteProblem } from '../plan/index.js';
import type { Action, ActionOutcome, HealthPath, HealthRules, UnhealthySite, WaveHealth } from '../types.js';
import { checkPages } from './page-checks.js';
import { rolledBackSites } from './rollbacks.js';

/**
 * The health step between waves: before a wave's updates, a reading of its sites (only when
 * response times are compared); after them, a check of every site the wave updated. A wave that
 * leaves more unhealthy sites than it may stops the rollout: later waves do not start.
 */
export interface WaveHealthOptions {
  client: Pick<DashboardClient, 'checkSites'> & Partial<Pick<DashboardClient, 'readRollbacks'>>;
  rules: HealthRules;
  maxUnhealthy: (wave: string | undefined) => number;
  /** The wave's pages to fetch (default: `rules.paths`). */
  pages?: ((wave: string | undefined) => HealthPath[] | undefined) | undefined;
  signal?: AbortSignal | undefined;
  /** Sites checked so far of a check (`stage` before: the baseline reading; after: the check). */
  onProgress?: ((progress: HealthProgress) => void) | undefined;
}

export interface HealthProgress {
  wave: string | undefined;
  stage: 'before' | 'after';
  done: number;
  total: number;
}

export interface WaveHealthStep {
  /** Before the wave's calls: readings to compare response times with. */
  before(wave: string | undefined, actions: readonly Action[]): Promise<void>;
  /** After the wave's calls: the check, and whether the rollout stops. */
  after(wave: string | undefined, outcomes: readonly ActionOutcome[]): Promise<WaveHealth>;
  /** Every wave's check so far, in order. */
  reports(): WaveHealth[];
}

export function createWaveHealthStep(options: WaveHealthOptions): WaveHealthStep {
  const baseline = new Map<number, SiteCheck>();
  const reports: WaveHealth[] = [];
  const check = (ids: number[], wave: string | undefined, stage: HealthProgress['stage']) => {
    if (ids.length === 0) return Promise.resolve([]);
    const report = options.onProgress;
    return options.client.checkSites(ids, {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(report
        ? { onProgress: (done: number, total: number) => report({ wave, stage, done, total }) }
        : {}),
    });
  };
  return {
    async before(wave, actions) {
      if (options.rules.responseTimeFactor === undefined) return;
      const ids = [...new Set(actions.map((action) => action.site_id))];
      // A reading that fails leaves no baseline: the site is then judged without its times.
      try {
        for (const reading of await check(ids, wave, 'before')) baseline.set(reading.siteId, reading);
      } catch {
        // the check after the wave reports the site if it is still failing
      }
    },
    async after(wave, outcomes) {
      const updated = new Map<number, { url: string; moves: string[] }>();
      for (const { action, status } of outcomes) {
        if (action.op !== 'update' || status !== 'done') continue;
        const entry = updated.get(action.site_id) ?? { url: action.site_url, moves: [] };
        entry.moves.push(describeMove(action));
        updated.set(action.site_id, entry);
      }
      const ids = [...updated.keys()].sort((a, b) => a - b);
      const unhealthy: UnhealthySite[] = [];
      let readings: SiteCheck[] | undefined;
      let failure: string | undefined;
      try {
        readings = await check(ids, wave, 'after');
      } catch (error) {
        failure = error instanceof Error ? error.message : String(error);
      }
      const problems = new Map<number, string>();
      for (const [index, id] of ids.entries()) {
        const reading = readings?.[index];
        const problem = reading
          ? siteProblem(reading, options.rules, baseline.get(id))
          : `health check failed: ${failure ?? 'no answer'}`;
        if (problem !== undefined) problems.set(id, problem);
      }
      // Pages only of sites check-site passed: one problem per site, check-site's first.
      const passed = ids.filter((id) => !problems.has(id)).map((id) => ({ id, url: updated.get(id)!.url }));
      const pages = options.pages ? options.pages(wave) : options.rules.paths;
      const pageRules = { ...options.rules, ...(pages ? { paths: pages } : { paths: [] }) };
      for (const [id, problem] of await checkPages(passed, pageRules, options.signal))
        problems.set(id, problem);
      for (const id of ids) {
        const problem = problems.get(id);
        const entry = updated.get(id)!;
        if (problem !== undefined)
          unhealthy.push({ site_id: id, site_url: entry.url, problem, after: entry.moves });
      }
      const rolledBack = await rolledBackSites(options.client, outcomes, options.signal);
      for (const site of rolledBack) {
        const known = unhealthy.find((entry) => entry.site_id === site.site_id);
        if (!known) unhealthy.push(site);
        else {
          known.problem += `; ${site.problem}`;
          known.after = [...(known.after ?? []), ...(site.after ?? [])];
        }
      }
      unhealthy.sort((a, b) => a.site_id - b.site_id);
      const max = options.maxUnhealthy(wave);
      // A version WordPress rolled back is known-bad whatever the wave may tolerate.
      const report: WaveHealth = {
        wave,
        checked: ids.length,
        unhealthy,
        max_unhealthy: max,
        stopped: unhealthy.length > max || rolledBack.length > 0,
      };
      reports.push(report);
      return report;
    },
    reports: () => [...reports],
  };
}
