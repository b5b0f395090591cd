import { SvcError } from '../../errors.js';
import type { IgnorableKind } from '../../types.js';
import type { Connection } from '../connection.js';
import { parseSuccess } from '../wire/writes.js';
import { restCall } from './call.js';

const FIELDS: Record<IgnorableKind, string> = {
  core: 'ignore_core_updates',
  plugin: 'ignore_plugin_updates',
  theme: 'ignore_theme_updates',
};

/**
 * Sets or clears a site-wide "ignore every update of this kind" flag through the REST site edit
 * route, the only route that clears one (dashboard-facts §5). An answer without success fails.
 */
export async function setSiteFlag(
  conn: Connection,
  siteId: number,
  kind: IgnorableKind,
  on: boolean,
  signal?: AbortSignal,
): Promise<void> {
  const route = `/sites/${siteId}/edit`;
  const body = await restCall(conn, {
    method: 'POST',
    route,
    body: { [FIELDS[kind]]: on ? 1 : 0 },
    retry: true,
    signal,
  });
  const result = parseSuccess(body, `REST POST ${route}`);
  if (!result.ok) {
    throw new SvcError(
      'APPLY_FAILED',
      `the dashboard did not ${on ? 'set' : 'clear'} the ${kind} flag of site ${siteId}: ${result.message || 'no reason given'}`,
    );
  }
}
