import type { SandboxContext } from '../context.js';
import type { FleetSite } from '../fleet-types.js';
import { ok, type Reply } from '../http-util.js';
import type { SiteCall } from './call.js';
import { siteStatus } from './read.js';

/** A site's usual response time in seconds: fixed per site, so checks compare like with like. */
function usualResponseTime(site: FleetSite): number {
  return 0.2 + (site.id % 7) * 0.05;
}

/**
 * check-site-v1: the dashboard asks the child site for its front page and reports whether it
 * answered, with which HTTP status and how fast (the shipped output schema; the catalogue entry
 * comes from shipped-catalogue.ts). A site under a health fault (health-faults.ts) answers as the
 * fault says.
 */
export function checkSite(ctx: SandboxContext, { site }: SiteCall): Reply {
  const fault = ctx.healthFaults.firing(site);
  const reachable = siteStatus(site) === 'connected';
  const online = fault ? fault.online : reachable;
  const httpCode = fault ? fault.httpCode : reachable ? 200 : 0;
  const responseTime = Number((fault?.responseTime ?? usualResponseTime(site)).toFixed(3));
  return ok({
    site_id: site.id,
    response_time: responseTime,
    checked: true,
    site: { id: site.id, url: site.url, name: site.name, status: siteStatus(site) },
    status: { online, http_code: httpCode, response_time: responseTime },
  });
}
