import { SvcError } from '../../errors.js';
import { CORE_SLUG } from '../../types.js';
import type { IgnoreRequest } from '../client.js';
import { parseSuccess } from '../wire/writes.js';
import type { AbilityCaller } from './call.js';

const BULK_ABILITY = {
  core: 'ignore-site-core-v1',
  plugin: 'ignore-site-plugins-v1',
  theme: 'ignore-site-themes-v1',
} as const;

/**
 * One call per site, kind and direction: `ignore-site-core/plugins/themes-v1` with `add`/`remove`
 * and the slug array. Where a dashboard lacks the bulk ability, `set-ignored-updates-v1` is used
 * once per slug. Only the response's `success` is checked (its counts are not trustworthy: the
 * shipped release counts slugs sent, not slugs changed); apply re-reads the state afterwards.
 */
export async function setIgnored(
  caller: AbilityCaller,
  request: IgnoreRequest,
  signal?: AbortSignal,
): Promise<void> {
  const slugs = request.kind === 'core' ? [CORE_SLUG] : [...new Set(request.slugs)];
  if (slugs.length === 0) return;
  const bulk = BULK_ABILITY[request.kind];
  if (caller.info(bulk)) {
    const input: Record<string, unknown> = {
      site_id_or_domain: request.siteId,
      action: request.direction === 'ignore' ? 'add' : 'remove',
    };
    if (request.kind !== 'core') input.slugs = slugs;
    await expectSuccess(caller, bulk, input, signal);
    return;
  }
  for (const slug of slugs) {
    await expectSuccess(
      caller,
      'set-ignored-updates-v1',
      { action: request.direction, site_id_or_domain: request.siteId, type: request.kind, slug },
      signal,
    );
  }
}

async function expectSuccess(
  caller: AbilityCaller,
  ability: string,
  input: Record<string, unknown>,
  signal: AbortSignal | undefined,
): Promise<void> {
  const name = caller.info(ability)?.name ?? ability;
  const result = parseSuccess(await caller.call(ability, input, signal), `ability ${name}`);
  if (!result.ok) {
    throw new SvcError(
      'APPLY_FAILED',
      `ability ${name} reported failure${result.message ? `: ${result.message}` : ''}`,
      {
        details: { ability: name, siteId: input.site_id_or_domain },
      },
    );
  }
}
