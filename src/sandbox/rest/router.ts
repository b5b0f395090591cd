import { restAuthError } from '../auth.js';
import type { SandboxContext } from '../context.js';
import { errorReply, ok, type Reply, type SandboxRequest } from '../http-util.js';
import { advanceJobs } from '../job-runner.js';
import { jobStatusBody } from '../jobs.js';
import { controllerBatch, globalBatch } from './batch.js';
import { ignoreItems, ignoreWp } from './ignore.js';
import { listAllUpdates, listIgnoredRest, listSiteUpdates } from './read.js';
import { updateEverything, updateSite, updateSiteKind, updateSiteWp } from './run.js';
import { editSite } from './site-edit.js';
import { getSiteRest, listSitesRest } from './sites.js';

type Handler = (ctx: SandboxContext, req: SandboxRequest, match: string[]) => Reply;

export interface Route {
  /** Stable name for stats, e.g. `GET /updates/:site`. */
  name: string;
  methods: readonly string[];
  pattern: RegExp;
  handler: Handler;
}

const WRITE = ['POST', 'PUT', 'PATCH'];
/** `GET /updates/{id}` only matches digits or a domain ending in a 2–6 letter TLD. */
const LISTED_SITE = '(\\d+|[A-Za-z0-9-.]+\\.[A-Za-z]{2,6})';
const SITE = '([A-Za-z0-9-.%]+)';

function site(match: string[]): string {
  return match[1] ?? '';
}

/** Route table of the REST API v2 update and batch routes (dashboard-facts §6); built once per sandbox. */
export function restRoutes(ctx: SandboxContext): Route[] {
  const table: Route[] = [
    { name: 'POST /batch', methods: WRITE, pattern: /^batch$/, handler: (c, r) => globalBatch(c, r) },
    {
      name: 'POST /:controller/batch',
      methods: WRITE,
      pattern: /^(sites|clients|tags|costs)\/batch$/,
      handler: (c, r, m) => controllerBatch(c, r, m[1] ?? ''),
    },
    { name: 'GET /updates', methods: ['GET'], pattern: /^updates$/, handler: (c, r) => listAllUpdates(c, r) },
    {
      name: 'GET /updates/ignored',
      methods: ['GET'],
      pattern: /^updates\/ignored$/,
      handler: (c, r) => (c.abilitiesBlocked ? blockedAbility(c) : listIgnoredRest(c, r)),
    },
    {
      name: 'POST /updates/update',
      methods: WRITE,
      pattern: /^updates\/update$/,
      handler: (c, r) => updateEverything(c, r),
    },
    {
      name: 'GET /updates/:site',
      methods: ['GET'],
      pattern: new RegExp(`^updates/${LISTED_SITE}$`),
      handler: (c, r, m) => listSiteUpdates(c, r, site(m)),
    },
    {
      name: 'GET /updates/:site/ignored',
      methods: ['GET'],
      pattern: new RegExp(`^updates/${SITE}/ignored$`),
      handler: (c, r, m) => (c.abilitiesBlocked ? blockedAbility(c) : listIgnoredRest(c, r, site(m))),
    },
    {
      name: 'POST /updates/:site/update',
      methods: WRITE,
      pattern: new RegExp(`^updates/${SITE}/update$`),
      handler: (c, _r, m) => updateSite(c, site(m)),
    },
    {
      name: 'POST /updates/:site/update/wp',
      methods: WRITE,
      pattern: new RegExp(`^updates/${SITE}/update/wp$`),
      handler: (c, _r, m) => updateSiteWp(c, site(m)),
    },
    ...(['plugins', 'themes', 'translations'] as const).map((kind) => ({
      name: `POST /updates/:site/update/${kind}`,
      methods: WRITE,
      pattern: new RegExp(`^updates/${SITE}/update/${kind}$`),
      handler: (c: SandboxContext, r: SandboxRequest, m: string[]) => updateSiteKind(c, r, site(m), kind),
    })),
    {
      name: 'POST /updates/:site/ignore/wp',
      methods: WRITE,
      pattern: new RegExp(`^updates/${SITE}/ignore/wp$`),
      handler: (c, _r, m) => ignoreWp(c, site(m)),
    },
    ...(['plugins', 'themes'] as const).map((kind) => ({
      name: `POST /updates/:site/ignore/${kind}`,
      methods: WRITE,
      pattern: new RegExp(`^updates/${SITE}/ignore/${kind}$`),
      handler: (c: SandboxContext, r: SandboxRequest, m: string[]) => ignoreItems(c, r, site(m), kind),
    })),
    { name: 'GET /sites', methods: ['GET'], pattern: /^sites$/, handler: (c, r) => listSitesRest(c, r) },
    {
      name: 'GET /sites/:site',
      methods: ['GET'],
      pattern: new RegExp(`^sites/${SITE}$`),
      handler: (c, _r, m) => getSiteRest(c, site(m)),
    },
    {
      name: 'POST /sites/:site/edit',
      methods: WRITE,
      pattern: new RegExp(`^sites/${SITE}/edit$`),
      handler: (c, r, m) => editSite(c, r, site(m)),
    },
  ];
  if (!ctx.quirks.statusUrlMissingRoute) {
    table.push({
      name: 'GET /jobs/:id',
      methods: ['GET'],
      pattern: /^jobs\/([A-Za-z0-9_-]+)$/,
      handler: (c, _r, m) => restJobStatus(c, site(m)),
    });
  }
  return table;
}

function restJobStatus(ctx: SandboxContext, id: string): Reply {
  const job = ctx.jobs.find(id);
  if (!job) return errorReply(404, `${ctx.ns}_job_not_found`, 'Job not found.');
  ctx.jobs.stepFast(job);
  advanceJobs(ctx);
  return ok(jobStatusBody(job));
}

export interface RestMatch {
  route: string;
  reply: () => Reply;
}

/** Finds the route; a wrong method on an existing path is 404 `rest_no_route` like an unknown path. */
export function matchRest(
  table: readonly Route[],
  ctx: SandboxContext,
  req: SandboxRequest,
  rest: string,
): RestMatch | undefined {
  const path = rest.replace(/\/+$/, '');
  for (const route of table) {
    const match = route.pattern.exec(path);
    if (!match || !route.methods.includes(req.method)) continue;
    return {
      route: route.name,
      reply: () => {
        // An authentication failure is answered before the route is dispatched: no Allow.
        const denied = restAuthError(ctx, req);
        if (denied) return denied;
        const reply = route.handler(
          ctx,
          req,
          [...match].map((m) => m ?? ''),
        );
        // WordPress names the route's methods on every answer of a dispatched route, errors too.
        return { ...reply, headers: { ...reply.headers, Allow: route.methods.join(', ') } };
      },
    };
  }
  return undefined;
}

/** What MainWP 6.1.2's REST ignored listings answer when the abilities routes are blocked. */
function blockedAbility(ctx: SandboxContext): Reply {
  return errorReply(
    500,
    'ability_invalid_input',
    `Ability "${ctx.ns}/list-ignored-updates-v1" has invalid input. Reason: scope is not a valid property of Object.`,
  );
}
