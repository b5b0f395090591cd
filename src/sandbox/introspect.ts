import { siteStatus } from './abilities/read.js';
import type { SandboxContext } from './context.js';
import { KIND_NAMES } from './entries.js';
import { type FaultRule, faultRulesProblem } from './faults.js';
import {
  errorReply,
  isLoopback,
  isRecord,
  noRoute,
  ok,
  type Reply,
  type SandboxRequest,
} from './http-util.js';
import { advanceJobs } from './job-runner.js';
import { jobStatusBody } from './jobs.js';
import { changePending, outsideUpdate } from './pending.js';
import { getVulnerabilityFeed, putVulnerabilityFeed } from './vuln-feed.js';

/**
 * Test and benchmark control under `/__sandbox/` (outside the dashboard namespaces, no auth,
 * loopback callers only): stats, state snapshot, run-time faults, the job clock, pending
 * updates changed "by hand" and releases published mid-run (scheduled-releases.ts).
 */
export function handleIntrospection(ctx: SandboxContext, req: SandboxRequest, rest: string): Reply {
  if (!isLoopback(req.remoteAddress))
    return errorReply(403, 'sandbox_loopback_only', 'Sandbox control is only available from loopback.');
  const route = `${req.method} ${rest}`;
  switch (route) {
    case 'GET stats':
      return ok(ctx.stats.snapshot());
    case 'POST stats/reset':
      ctx.stats.reset();
      return ok({ reset: true });
    case 'GET state':
      return ok(stateSnapshot(ctx));
    case 'GET faults':
      return ok(ctx.faults.rules());
    case 'PUT faults': {
      const rules = isRecord(req.body) ? req.body.rules : req.body;
      const problem = faultRulesProblem(rules);
      if (problem) return errorReply(400, 'sandbox_invalid_faults', problem);
      ctx.faults.replace(rules as FaultRule[]);
      return ok({ rules: ctx.faults.rules() });
    }
    case 'GET health-faults':
      return ok(ctx.healthFaults.rules());
    case 'PUT health-faults': {
      const rules = isRecord(req.body) ? req.body.rules : req.body;
      const problem = ctx.healthFaults.replace(rules, (id) => ctx.store.resolve(id));
      if (problem) return errorReply(400, 'sandbox_invalid_health_faults', problem);
      return ok({ rules: ctx.healthFaults.rules() });
    }
    case 'GET site-pages':
      return ok(ctx.sitePages.snapshot());
    case 'POST site-pages/reset':
      ctx.sitePages.reset();
      return ok(ctx.sitePages.snapshot());
    case 'GET scheduled-releases':
      return ok(ctx.releases.rules());
    case 'PUT scheduled-releases': {
      const problem = ctx.releases.replace(isRecord(req.body) ? req.body.rules : req.body);
      if (problem) return errorReply(400, 'sandbox_invalid_scheduled_releases', problem);
      return ok({ rules: ctx.releases.rules() });
    }
    case 'POST clock': {
      const seconds = isRecord(req.body) ? Number(req.body.seconds) : Number.NaN;
      if (!Number.isFinite(seconds) || seconds < 0)
        return errorReply(400, 'sandbox_invalid_clock', 'Send {"seconds": N} with N >= 0.');
      ctx.clock.advance(seconds);
      advanceJobs(ctx);
      return ok({ now: new Date(ctx.clock.now()).toISOString() });
    }
    case 'POST pending':
    case 'DELETE pending':
      return changePending(
        ctx,
        req.method === 'POST' ? 'add' : 'remove',
        isRecord(req.body) ? req.body : Object.fromEntries(req.query),
      );
    case 'PUT vulnerability-feed':
      return putVulnerabilityFeed(ctx, req.body);
    case 'GET vulnerability-feed':
      return getVulnerabilityFeed(ctx, req);
    case 'POST outside-update':
      return outsideUpdate(ctx, isRecord(req.body) ? req.body : Object.fromEntries(req.query));
    default:
      return noRoute();
  }
}

function stateSnapshot(ctx: SandboxContext): Record<string, unknown> {
  const sites = ctx.store.sites().map((site) => ({
    id: site.id,
    url: site.url,
    name: site.name,
    status: siteStatus(site),
    offline: site.offline,
    suspended: site.suspended,
    connector_version: site.connectorVersion,
    core: site.core,
    plugins: site.plugins,
    themes: site.themes,
    translations: site.translations,
    ignores: site.ignores,
    ignore_flags: site.flags,
    unsynced: site.unsynced ?? [],
    pending: KIND_NAMES.flatMap((kind) => ctx.store.visible(site)[kind]),
  }));
  return {
    sites,
    global_ignores: ctx.store.global,
    jobs: [...ctx.jobs.jobs.values()].map(jobStatusBody),
    clock: new Date(ctx.clock.now()).toISOString(),
  };
}
