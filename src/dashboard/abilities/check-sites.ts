import { isSvcError, SvcError } from '../../errors.js';
import type { CheckSitesOptions, SiteCheck } from '../client.js';
import { mapConcurrent } from '../concurrent.js';
import { parseSiteCheck } from '../wire/check-site.js';
import type { AbilityCaller } from './call.js';

const ABILITY = 'check-site-v1';

/**
 * One `check-site-v1` call per site, `concurrency` at a time, results in the order asked. A site
 * the dashboard answers about with an error (not found, no access, the child not answering) is a
 * result with that error, never healthy; failures of the connection itself are thrown, since
 * they say nothing about the site.
 */
export async function checkSites(
  caller: AbilityCaller,
  siteIds: readonly number[],
  concurrency: number,
  options: CheckSitesOptions = {},
): Promise<SiteCheck[]> {
  const { signal, onProgress } = options;
  if (!caller.info(ABILITY)) {
    throw new SvcError(
      'UNSUPPORTED',
      `health checks need the ability ${ABILITY}, which this dashboard does not offer`,
      {
        hint: 'remove `rollout.health` and `after:` from the desired state, or update the dashboard',
      },
    );
  }
  const where = `ability ${caller.info(ABILITY)?.name ?? ABILITY}`;
  let done = 0;
  return mapConcurrent(siteIds, concurrency, async (siteId): Promise<SiteCheck> => {
    let result: SiteCheck;
    try {
      const wire = parseSiteCheck(
        await caller.call(ABILITY, { site_id_or_domain: siteId }, signal),
        where,
        siteId,
      );
      result = { ...wire, siteId };
    } catch (error) {
      if (!isSiteReply(error)) throw error;
      result = {
        siteId,
        online: false,
        httpCode: 0,
        responseTime: 0,
        error: `${error.code}: ${error.message}`,
      };
    }
    onProgress?.(++done, siteIds.length);
    return result;
  });
}

/** A reply about this one site (the dashboard answered), as opposed to a failed connection. */
function isSiteReply(error: unknown): error is SvcError {
  return (
    isSvcError(error) &&
    (error.code === 'NOT_FOUND' || error.code === 'FORBIDDEN' || error.code === 'HTTP_ERROR')
  );
}
