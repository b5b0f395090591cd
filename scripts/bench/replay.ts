import { performance } from 'node:perf_hooks';
import type { LoggedRequest } from './request-log.js';

/**
 * Sends the GET requests of a logged run again, `concurrency` at a time, with the credentials
 * each surface takes (Basic for the abilities routes, the REST key as a bearer for REST v2), and
 * drops the bodies. The dashboard's log then holds their server times without the contention of
 * the run itself; returns the wall time.
 */
export async function replay(
  requests: readonly LoggedRequest[],
  env: Record<string, string>,
  concurrency: number,
): Promise<number> {
  const base = (env.SVC_URL ?? '').replace(/\/$/, '');
  const basic = `Basic ${Buffer.from(`${env.SVC_USER}:${env.SVC_APP_PASSWORD}`).toString('base64')}`;
  const bearer = `Bearer ${env.SVC_TOKEN ?? ''}`;
  const gets = requests.filter((r) => r.method === 'GET');
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < gets.length) {
        const request = gets[next++] as LoggedRequest;
        const authorization = request.uri.startsWith('/wp-json/wp-abilities/') ? basic : bearer;
        const answer = await fetch(base + request.uri, { headers: { authorization } });
        await answer.arrayBuffer();
      }
    }),
  );
  return performance.now() - started;
}
