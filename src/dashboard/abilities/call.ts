import { SvcError } from '../../errors.js';
import type { Connection } from '../connection.js';
import { statusFailure } from '../transport/status.js';
import type { Json } from '../wire/json.js';
import type { AbilityInfo, Catalogue } from './catalogue.js';
import { bracketQuery } from './query.js';

/** Runs abilities the way their catalogue entries say: method, allowed keys, encoding. */
export interface AbilityCaller {
  /** The catalogue entry of `<ns>/<shortName>`, or undefined when the dashboard lacks it. */
  info(shortName: string): AbilityInfo | undefined;
  /** True when the ability declares the input key (so sending it is allowed). */
  declares(shortName: string, key: string): boolean;
  call(shortName: string, input: Record<string, unknown>, signal?: AbortSignal): Promise<Json | undefined>;
}

export function createAbilityCaller(conn: Connection, catalogue: Catalogue): AbilityCaller {
  const info = (shortName: string) => catalogue.get(`${conn.namespace}/${shortName}`);
  return {
    info,
    declares: (shortName, key) => info(shortName)?.properties.has(key) ?? false,
    async call(shortName, input, signal) {
      const ability = info(shortName);
      const name = `${conn.namespace}/${shortName}`;
      if (!ability) {
        throw new SvcError('UNSUPPORTED', `the dashboard does not offer the ability ${name}`, {
          hint: 'Update the dashboard, or check the interface namespace (SVC_NAMESPACE).',
        });
      }
      for (const key of Object.keys(input)) {
        if (!ability.properties.has(key)) {
          // Sending an undeclared key is refused by the dashboard (additionalProperties:false);
          // silently dropping it could widen the call (e.g. an update without its item filter).
          throw new SvcError('UNSUPPORTED', `the ability ${name} does not declare the input "${key}"`, {
            details: { ability: name, key },
          });
        }
      }
      const path = `${conn.abilitiesBase}/abilities/${name}/run`;
      const hasInput = Object.keys(input).length > 0;
      const viaQuery = ability.method !== 'POST';
      const res = await conn.transport.send({
        method: ability.method,
        path,
        query: viaQuery && hasInput ? bracketQuery(input) : '',
        ...(!viaQuery && hasInput ? { body: { input } } : {}),
        headers: conn.abilityAuth.headers,
        retry: ability.idempotent,
        signal,
      });
      if (res.status < 200 || res.status >= 300) {
        throw statusFailure(res, {
          method: ability.method,
          path,
          what: `ability ${name}`,
          surface: 'abilities',
          auth: conn.abilityAuth.kind,
          secrets: conn.secrets,
          url: conn.url,
        });
      }
      return res.body;
    },
  };
}
