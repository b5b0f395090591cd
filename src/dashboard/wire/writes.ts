import type { ItemKind } from '../../types.js';
import { parseErrors, parseKind, type WireError } from './common.js';
import { badShape, decodeSlug, isObject, type Json, Reader } from './json.js';
import { parseSkipped, type WireSkipped } from './preview.js';

export interface WireUpdated {
  siteId: number;
  kind: ItemKind;
  slug: string;
  from?: string;
  to?: string;
}

export type RunResponse =
  | {
      queued: false;
      updated: WireUpdated[];
      errors: WireError[];
      skipped: WireSkipped[];
      counts?: Record<string, number>;
    }
  | { queued: true; jobId: string; errors: WireError[]; skipped: WireSkipped[] };

/**
 * `run-updates-v1` / `update-all-v1`: immediate `{updated[], errors[], summary}` (full entries,
 * or the next release's slim `{site_id,type,slug,success}` where `success:false` is an error),
 * or queued `{queued:true, job_id, status_url, updates_queued, errors[]}`.
 */
export function parseRunResponse(body: Json | undefined, where: string): RunResponse {
  const r = Reader.of(body, where);
  const errors = parseErrors(r.optionalArray('errors'), where);
  // The next release lists what an ignore held back (dashboard-facts §9).
  const skipped = parseSkipped(r.optionalArray('skipped'), where);
  if (r.has('queued') && r.success('queued'))
    return { queued: true, jobId: r.string('job_id'), errors, skipped };
  const raw = r.raw('updated');
  if (isObject(raw) && !Object.keys(raw).every((k) => /^\d+$/.test(k))) {
    // The spec's update-all result: counts per kind instead of entries.
    const counts = r.object('updated');
    const out = Object.fromEntries(Object.keys(raw).map((kind) => [kind, counts.int(kind)]));
    return { queued: false, updated: [], errors, skipped, counts: out };
  }
  const updated: WireUpdated[] = [];
  r.array('updated').forEach((item, index) => {
    const e = Reader.of(item, where, `updated[${index}]`);
    const entry: WireUpdated = {
      siteId: e.int('site_id'),
      kind: parseKind(e.string('type'), where, e.field('type')),
      slug: decodeSlug(e.string('slug')),
    };
    if (e.has('success') && !e.success('success')) {
      errors.push({
        siteId: entry.siteId,
        siteRef: String(entry.siteId),
        kind: entry.kind,
        slug: entry.slug,
        code: e.optionalString('code') ?? 'svc_update_failed',
        message: e.optionalString('message') ?? e.optionalString('error') ?? 'update failed',
      });
      return;
    }
    const from = e.optionalString('old_version');
    const to = e.optionalString('new_version');
    if (from !== undefined) entry.from = from;
    if (to !== undefined) entry.to = to;
    updated.push(entry);
  });
  return { queued: false, updated, errors, skipped };
}

export interface JobStatus {
  jobId: string;
  status: 'queued' | 'processing' | 'completed' | 'failed';
  processed: number;
  total: number;
  errors: WireError[];
  timedOut: boolean;
}

const JOB_STATES = new Set(['queued', 'processing', 'completed', 'failed']);

/** `get-batch-job-status-v1`. */
export function parseJobStatus(body: Json | undefined, where: string): JobStatus {
  const r = Reader.of(body, where);
  const status = r.string('status');
  if (!JOB_STATES.has(status)) {
    throw badShape(where, 'status', 'queued/processing/completed/failed', status);
  }
  return {
    jobId: r.string('job_id'),
    status: status as JobStatus['status'],
    processed: r.optionalInt('processed') ?? 0,
    total: r.optionalInt('total') ?? 0,
    errors: parseErrors(r.optionalArray('errors'), where),
    timedOut: r.has('job_timed_out') ? r.success('job_timed_out') : false,
  };
}

/** Ignore abilities: `{success, message?, ...}`; success as true/false or 1/0. */
export function parseSuccess(body: Json | undefined, where: string): { ok: boolean; message: string } {
  const r = Reader.of(body, where);
  return { ok: r.success(), message: r.optionalString('message') ?? r.optionalString('error') ?? '' };
}

export interface BatchItemResult {
  siteId: number | undefined;
  ok: boolean;
  code: string;
  message: string;
}

/**
 * One action of the global `/batch` response (`{sites:{sync:[…]}}`; `[]` when nothing ran).
 * Items: `{id, error:{code,message}}`, `{success, data, message?}` or `{success:0, error}`.
 */
export function parseBatchAction(
  body: Json | undefined,
  where: string,
  controller: string,
  action: string,
): BatchItemResult[] {
  if (Array.isArray(body) && body.length === 0) return [];
  const r = Reader.of(body, where);
  if (!r.has(controller)) return [];
  const c = r.object(controller);
  if (!c.has(action)) return [];
  return c.array(action).map((item, index) => {
    const e = Reader.of(item, where, `${controller}.${action}[${index}]`);
    const id = e.optionalInt('id');
    const error = e.raw('error');
    if (isObject(error)) {
      const err = Reader.of(error, where, e.field('error'));
      return {
        siteId: id,
        ok: false,
        code: err.optionalString('code') ?? 'batch_error',
        message: err.optionalString('message') ?? '',
      };
    }
    const ok = e.has('success') ? e.success() : false;
    const message = typeof error === 'string' ? error : (e.optionalString('message') ?? '');
    return { siteId: id, ok, code: ok ? 'ok' : 'sync_failed', message };
  });
}
