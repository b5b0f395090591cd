import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { FaultRule, RunningSandbox } from '../../src/sandbox/index.js';
import { client, start } from './helpers.js';

describe('fault injection', () => {
  let sb: RunningSandbox;
  afterEach(() => sb.close());

  it('answers 5xx on a chosen ability without running it, then recovers after `times`', async () => {
    sb = await start({ faults: [{ kind: 'status', status: 502, ability: 'run-updates-v1', times: 1 }] });
    const api = client(sb);
    const failed = await api.ability('run-updates-v1', { site_ids_or_domains: [1] }, { method: 'POST' });
    expect([failed.status, failed.body.code]).toEqual([502, 'sandbox_injected_fault']);
    expect((await api.control('GET', 'stats')).body.updates_run_total).toBe(0);
    const ok = await api.ability('run-updates-v1', { site_ids_or_domains: [1] }, { method: 'POST' });
    expect(ok.status).toBe(200);
    expect(ok.body.summary.total_updated).toBe(5);
  });

  it('with `after`, the update runs but the response is lost (a 5xx after the side effect)', async () => {
    sb = await start({ faults: [{ kind: 'status', after: true, ability: 'update-site-core-v1' }] });
    const api = client(sb);
    const res = await api.ability('update-site-core-v1', { site_id_or_domain: 1 }, { method: 'POST' });
    expect(res.status).toBe(503);
    expect((await api.control('GET', 'stats')).body.updates_run).toEqual([
      { site_id: 1, kind: 'core', slug: 'wordpress', count: 1 },
    ]);
  });

  it('answers 429 with Retry-After', async () => {
    sb = await start({ faults: [{ kind: 'rate-limit', retryAfter: 7, route: '/abilities/' }] });
    const res = await client(sb).ability('list-sites-v1');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.body.code).toBe('rest_too_many_requests');
  });

  it('resets the connection', async () => {
    sb = await start({ faults: [{ kind: 'reset', route: '/wp-json/svc/v2/updates' }] });
    const api = client(sb);
    await expect(api.rest('GET', 'updates')).rejects.toThrow();
    expect((await api.control('GET', 'stats')).body.requests['GET /updates']).toBe(1);
  });

  it('refuses new connections for a while after a `refuse` fault, then serves again', async () => {
    sb = await start({
      faults: [{ kind: 'refuse', route: '/wp-json/svc/v2/updates/1', delayMs: 300, times: 1 }],
    });
    const url = `${sb.url}/wp-json/svc/v2/updates/2`;
    const headers = { authorization: client(sb).bearer };
    await expect(client(sb).rest('GET', 'updates/1')).rejects.toThrow();
    const refused = await request(url, { headers }).then(
      () => 'answered',
      (error: { code?: string }) => error.code,
    );
    expect(refused).toBe('ECONNREFUSED');
    let answered = 0;
    for (let i = 0; i < 100 && answered === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      answered = await request(url, { headers }).then(
        (res) => res.statusCode,
        () => 0,
      );
    }
    expect(answered).toBe(200);
  });

  it('pads an oversized body (valid JSON) with or without Content-Length', async () => {
    sb = await start({
      faults: [
        { kind: 'oversized', bytes: 200_000, times: 1 },
        { kind: 'oversized', bytes: 100_000, chunked: true, skip: 1 },
      ],
    });
    const url = `${sb.url}/wp-json/svc/v2/updates/1`;
    const headers = { authorization: client(sb).bearer };
    const sized = await request(url, { headers });
    expect(sized.headers['content-length']).toBe('200000');
    expect(JSON.parse(await sized.body.text()).success).toBe(1);
    const streamed = await request(url, { headers });
    expect(streamed.headers['content-length']).toBeUndefined();
    expect((await streamed.body.text()).length).toBe(100_000);
  });

  it('delays (latency) and trickles (slow-body) without changing the body', async () => {
    sb = await start({
      faults: [
        { kind: 'latency', delayMs: 20 },
        { kind: 'slow-body', bytes: 64, delayMs: 1 },
      ],
    });
    const res = await client(sb).ability('list-updates-v1', { per_page: 2 });
    expect(res.status).toBe(200);
    expect(res.body.updates).toHaveLength(2);
  });

  it('fires a seeded rate deterministically and can be replaced at run time', async () => {
    const rules: FaultRule[] = [{ kind: 'status', rate: 0.5, route: '/wp-json/svc/v2/' }];
    const pattern = async (): Promise<number[]> => {
      const api = client(sb);
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await api.rest('GET', 'updates/1')).status);
      return statuses;
    };
    sb = await start({ faults: rules, seed: 42 });
    const first = await pattern();
    await sb.close();
    sb = await start({ faults: rules, seed: 42 });
    expect(await pattern()).toEqual(first);
    expect(first).toContain(503);
    expect(first).toContain(200);
    const api = client(sb);
    expect((await api.control('PUT', 'faults', [])).status).toBe(200);
    expect(new Set(await pattern())).toEqual(new Set([200]));
    const bad = await api.control('PUT', 'faults', [{ kind: 'explode' }]);
    expect([bad.status, bad.body.code]).toEqual([400, 'sandbox_invalid_faults']);
    // Every kind the sandbox implements can be set over the control route.
    for (const kind of ['latency', 'status', 'rate-limit', 'reset', 'refuse', 'oversized', 'slow-body'])
      expect((await api.control('PUT', 'faults', [{ kind, times: 0 }])).status, kind).toBe(200);
  });
});
