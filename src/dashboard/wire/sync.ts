import { type Json, Reader } from './json.js';

export type SyncResponse =
  | { queued: false; synced: number[]; errors: Array<{ ref: string; code: string; message: string }> }
  | { queued: true; jobId: string; errors: Array<{ ref: string; code: string; message: string }> };

/**
 * `sync-sites-v1`: `{synced:[{id,url,name}], errors:[{identifier,code,message}], total_synced,
 * total_errors}` or queued `{queued:true, job_id, status_url, sites_queued}`.
 */
export function parseSyncResponse(body: Json | undefined, where: string): SyncResponse {
  const r = Reader.of(body, where);
  const errors = r.optionalArray('errors').map((item, index) => {
    const e = Reader.of(item, where, `errors[${index}]`);
    const identifier = e.raw('identifier');
    return {
      ref: typeof identifier === 'number' || typeof identifier === 'string' ? String(identifier) : '',
      code: e.optionalString('code') ?? 'unknown_error',
      message: e.optionalString('message') ?? '',
    };
  });
  if (r.has('queued') && r.success('queued')) return { queued: true, jobId: r.string('job_id'), errors };
  const synced = r.array('synced').map((item, index) => Reader.of(item, where, `synced[${index}]`).int('id'));
  return { queued: false, synced, errors };
}
