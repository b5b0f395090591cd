import { nsCode, type SandboxContext } from '../context.js';
import type { BatchRecords } from '../fleet-types.js';
import { errorReply, isRecord, ok, type Reply, type SandboxRequest } from '../http-util.js';
import { createSite, itemError, runSiteAction } from './batch-sites.js';
import { phpMap } from './params.js';

const CONTROLLERS = ['sites', 'clients', 'updates', 'costs', 'tags'] as const;
const COUNTED = ['create', 'update', 'delete'];

function siteActions(ctx: SandboxContext): string[] {
  return [
    'sync',
    'reconnect',
    'disconnect',
    'suspend',
    'check',
    'remove',
    'security',
    'plugins',
    'themes',
    `non-${ctx.ns}-changes`,
    'non-mainwp-changes',
  ];
}

/** Items the limit counts: every create/update/delete array plus every `sites` action array. */
function countItems(ctx: SandboxContext, body: Record<string, unknown>): number {
  let total = 0;
  for (const controller of CONTROLLERS) {
    const actions = body[controller];
    if (!isRecord(actions)) continue;
    const counted = controller === 'sites' ? [...COUNTED, ...siteActions(ctx)] : COUNTED;
    for (const action of counted) {
      const list = actions[action];
      if (Array.isArray(list)) total += list.length;
    }
  }
  return total;
}

/**
 * `POST|PUT|PATCH /batch`. Over the limit the whole request is refused (413) before anything
 * runs. Only `create` (and the site actions) run; `update`/`delete` count but never run.
 */
export function globalBatch(ctx: SandboxContext, req: SandboxRequest): Reply {
  return runBatch(ctx, req.body === undefined ? {} : req.body);
}

/**
 * `POST|PUT|PATCH /{sites|clients|tags|costs}/batch`: `{create, update, delete}` for one
 * controller, under the same limit (update/delete count, only create runs). The spec does not
 * show these payloads; the result is the controller's part of the global batch answer.
 */
export function controllerBatch(ctx: SandboxContext, req: SandboxRequest, controller: string): Reply {
  const body = req.body === undefined ? {} : req.body;
  if (!isRecord(body)) return errorReply(400, 'rest_invalid_param', 'The batch body must be a JSON object.');
  const picked = Object.fromEntries(
    COUNTED.filter((action) => action in body).map((action) => [action, body[action]]),
  );
  const reply = runBatch(ctx, { [controller]: picked });
  if (reply.status !== 200 || !isRecord(reply.body)) return reply;
  return ok(phpMap(ctx, (reply.body[controller] as Record<string, unknown> | undefined) ?? {}));
}

function runBatch(ctx: SandboxContext, body: unknown): Reply {
  if (!isRecord(body))
    return errorReply(400, 'rest_invalid_param', 'The batch body must be a JSON object keyed by controller.');
  if (countItems(ctx, body) > ctx.batchLimit) {
    return errorReply(
      413,
      nsCode(ctx, 'rest_request_entity_too_large'),
      `Unable to accept more than ${ctx.batchLimit} items for this request.`,
    );
  }
  const response: Record<string, Record<string, unknown[]>> = {};
  for (const controller of CONTROLLERS) {
    const actions = body[controller];
    if (!isRecord(actions)) continue;
    const results: Record<string, unknown[]> = {};
    if (Array.isArray(actions.create))
      results.create = actions.create.map((payload) => create(ctx, controller, payload));
    if (controller === 'sites') {
      for (const action of siteActions(ctx)) {
        const list = actions[action];
        if (!Array.isArray(list)) continue;
        // Elements are numeric site IDs; 0 and non-numeric values are skipped silently.
        const ids = list
          .map((v) => (typeof v === 'number' ? v : /^\d+$/.test(String(v)) ? Number(v) : 0))
          .filter((id) => Number.isInteger(id) && id > 0);
        if (ids.length > 0) results[action] = ids.map((id) => runSiteAction(ctx, action, id));
      }
    }
    if (Object.keys(results).length > 0) response[controller] = results;
  }
  return ok(phpMap(ctx, response));
}

function create(ctx: SandboxContext, controller: (typeof CONTROLLERS)[number], payload: unknown): unknown {
  if (controller === 'sites') return createSite(ctx, payload);
  if (controller === 'updates') {
    return itemError(
      0,
      'invalid-method',
      "Method 'WP_REST_Controller::create_item' not implemented. Must be overridden in subclass.",
      405,
    );
  }
  const p = isRecord(payload) ? payload : {};
  const singular = controller.slice(0, -1);
  if (typeof p.name !== 'string' || p.name.trim() === '') {
    return itemError(0, nsCode(ctx, 'rest_invalid_param'), `The ${singular} name is required.`, 400);
  }
  const records = recordsOf(ctx);
  const list = records[controller];
  const record = { ...p, id: (list.at(-1)?.id ?? 0) + 1, name: p.name };
  list.push(record);
  ctx.store.touch();
  const title = singular[0]?.toUpperCase() + singular.slice(1);
  return { success: 1, message: `${title} created successfully.`, data: record };
}

function recordsOf(ctx: SandboxContext): BatchRecords {
  ctx.store.fleet.records ??= { clients: [], tags: [], costs: [] };
  return ctx.store.fleet.records;
}
