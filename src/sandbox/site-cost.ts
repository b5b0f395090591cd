import type { SandboxProfile } from './quirks.js';

/**
 * What a listing costs the dashboard per site it processes. MainWP builds the update list of
 * every site a `list-updates-v1` request names (every site of the user when it names none)
 * before it slices one page out of it, so a page costs time in proportion to those sites:
 * about 0.8 ms a site on the measured host (issue 31: 4.1 s a page at 5,003 sites). The
 * sandbox counts that site-work always (stats `site_work`, the ignored listing's too) and, when
 * `msPerSite` is above 0, answers a `list-updates-v1` request that much later.
 */
export interface SiteCost {
  msPerSite: number;
}

/**
 * The profiles modelled on the shipped plugin (compat-6.1, next) cost a small 0.05 ms a site by
 * default, so a client that pages the whole fleet is seen to slow down at fleet size while a
 * small demo fleet stays instant; the spec profile has no cost. `SVC_SANDBOX_SITE_COST_MS`
 * (a number of milliseconds, 0 = off) overrides the default: the test suite sets 0.
 */
export function defaultSiteCost(profile: SandboxProfile, env: NodeJS.ProcessEnv = process.env): SiteCost {
  const configured = env.SVC_SANDBOX_SITE_COST_MS;
  if (configured !== undefined && configured !== '') {
    const ms = Number(configured);
    if (!Number.isFinite(ms) || ms < 0)
      throw new Error(`SVC_SANDBOX_SITE_COST_MS must be a number of milliseconds ≥ 0, not "${configured}"`);
    return { msPerSite: ms };
  }
  return { msPerSite: profile === 'spec' ? 0 : DEFAULT_MS_PER_SITE };
}

export const DEFAULT_MS_PER_SITE = 0.05;
