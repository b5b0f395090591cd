import { afterEach, describe, expect, it } from 'vitest';
import {
  generateFleet,
  type RunningSandbox,
  type SandboxProfile,
  startSandbox,
} from '../../src/sandbox/index.js';
import { client } from './helpers.js';

const FLEET = generateFleet({ sites: 45, pendingPerSite: 4, seed: 11 });

describe.each<SandboxProfile>(['compat-6.1', 'spec'])('queued runs and job polling (%s)', (profile) => {
  let sb: RunningSandbox;
  afterEach(() => sb.close());

  it('queues a run over more sites than the threshold and processes 20 sites per poll', async () => {
    sb = await startSandbox({ fleet: FLEET, profile, queueThreshold: 10 });
    const api = client(sb);
    const listed = (await api.ability('list-updates-v1', { per_page: 200 })).body;
    const before = listed.total;
    // No sites means every site of the user in 6.1, the sites with updates in the spec.
    const withUpdates = new Set(listed.updates.map((u: { site_id: number }) => u.site_id)).size;
    expect(before).toBeLessThanOrEqual(200);
    expect(withUpdates).toBeLessThan(45);
    const n = profile === 'compat-6.1' ? 45 : withUpdates;
    const queued = await api.ability(
      'run-updates-v1',
      { site_ids_or_domains: [], types: [] },
      { method: 'POST' },
    );
    expect(queued.body).toMatchObject({ queued: true, updates_queued: n, errors: [] });
    expect(queued.body.job_id).toMatch(
      /^update_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(queued.body.status_url).toBe(`${sb.url}/wp-json/svc/v2/jobs/${queued.body.job_id}`);
    // Nothing ran yet: the first chunk waits 60 simulated seconds.
    expect((await api.ability('list-updates-v1', { per_page: 1 })).body.total).toBe(before);
    const polls = [];
    for (let i = 0; i < 3; i++)
      polls.push((await api.ability('get-batch-job-status-v1', { job_id: queued.body.job_id })).body);
    expect(polls.map((p) => [p.status, p.processed, p.progress])).toEqual([
      ['processing', 20, Math.floor((20 / n) * 100)],
      ['processing', 40, Math.floor((40 / n) * 100)],
      ['completed', n, 100],
    ]);
    const done = polls[2];
    expect(done).toMatchObject({ type: 'update', total: n, job_timed_out: false, failed: 0 });
    expect(done.succeeded).toBe(before);
    expect(done.started_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect((await api.ability('list-updates-v1', { per_page: 1 })).body.total).toBe(0);
    const stats = (await api.control('GET', 'stats')).body;
    // Every pending update ran, each exactly once (an empty list would not prove that).
    const runs: Array<{ site_id: number; count: number }> = stats.updates_run;
    expect(before).toBeGreaterThan(0);
    expect(runs).toHaveLength(before);
    expect(runs.filter((u) => u.count !== 1)).toEqual([]);
    expect(new Set(runs.map((u) => u.site_id))).toEqual(
      new Set(listed.updates.map((u: { site_id: number }) => u.site_id)),
    );
    const route = await api.rest('GET', `jobs/${queued.body.job_id}`);
    if (profile === 'compat-6.1') expect([route.status, route.body.code]).toEqual([404, 'rest_no_route']);
    else expect(route.body).toMatchObject({ status: 'completed', processed: n });
  });

  it('expires a job after 24 simulated hours', async () => {
    sb = await startSandbox({ fleet: FLEET, profile, queueThreshold: 10 });
    const api = client(sb);
    const queued = await api.ability('update-all-v1', {}, { method: 'POST' });
    expect(queued.body.queued).toBe(true);
    await api.control('POST', 'clock', { seconds: 25 * 3600 });
    const gone = await api.ability('get-batch-job-status-v1', { job_id: queued.body.job_id });
    expect([gone.status, gone.body.code]).toEqual([404, 'svc_job_not_found']);
  });

  it('fails a stalled job with job_timed_out after 4 hours', async () => {
    sb = await startSandbox({ fleet: FLEET, profile, queueThreshold: 10 });
    const api = client(sb);
    const queued = await api.ability('run-updates-v1', { types: ['plugins'] }, { method: 'POST' });
    await api.ability('get-batch-job-status-v1', { job_id: queued.body.job_id });
    await api.control('POST', 'clock', { seconds: 5 * 3600 });
    const status = (await api.ability('get-batch-job-status-v1', { job_id: queued.body.job_id })).body;
    expect(status).toMatchObject({
      status: 'failed',
      job_timed_out: true,
      job_error_code: 'timeout',
      processed: 20,
    });
  });

  it('keeps realistic timing available: nothing moves before 60 s of wall time', async () => {
    sb = await startSandbox({ fleet: FLEET, profile, queueThreshold: 10, clock: 'realistic' });
    const api = client(sb);
    const queued = await api.ability('run-updates-v1', {}, { method: 'POST' });
    const status = (await api.ability('get-batch-job-status-v1', { job_id: queued.body.job_id })).body;
    expect(status).toMatchObject({ status: 'queued', processed: 0, started_at: null, completed_at: null });
    await api.control('POST', 'clock', { seconds: 60 });
    const moved = (await api.ability('get-batch-job-status-v1', { job_id: queued.body.job_id })).body;
    expect(moved.processed).toBe(20);
  });
});
