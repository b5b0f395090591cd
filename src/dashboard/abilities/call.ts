import { SvcError } from '../../errors.js';
import { settingVariable } from '../../settings/types.js';
import type { Connection } from '../connection.js';
import { MAX_REQUEST_LINE_BYTES, requestLineBytes } from '../transport/request-line.js';
import { statusFailure } from '../transport/status.js';
import type { Json } from '../wire/json.js';
import type { AbilityInfo, Catalogue } from './catalogue.js';
import { bracketQuery } from './query.js';

/** Runs abilities the way their catalogue entries say: method, allowed keys, encoding. */
export interface AbilityCaller {
  /** The catalogue entry of `<ns>/<shortName>`, or undefined when the dashboard lacks it. */
  info(shortName: string): AbilityInfo | undefined;
  /** Every ability of this namespace the catalogue lists, in catalogue order. */
  all(): AbilityInfo[];
  /** True when the ability declares the input key (so sending it is allowed). */
  declares(shortName: string, key: string): boolean;
  call(shortName: string, input: Record<string, unknown>, signal?: AbortSignal): Promise<Json | undefined>;
  /** `call`, with the body's text when it spells exactly the body (HttpResponse.text). */
  callWithText(
    shortName: string,
    input: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<{ body: Json | undefined; text?: string }>;
  /**
   * Splits `values` of the array input `key` into the fewest consecutive pieces whose call (with
   * the rest of `input`, and room for `page`/`per_page` where the ability pages) keeps its
   * request line within MAX_REQUEST_LINE_BYTES. Inputs that travel in a body are not split.
   */
  splitForQuery(
    shortName: string,
    input: Record<string, unknown>,
    key: string,
    values: readonly unknown[],
  ): unknown[][];
}

export function createAbilityCaller(conn: Connection, catalogue: Catalogue): AbilityCaller {
  const info = (shortName: string) => catalogue.get(`${conn.namespace}/${shortName}`);
  const basePath = new URL(conn.url).pathname.replace(/\/+$/, '');
  const runPath = (shortName: string) => `${conn.abilitiesBase}/abilities/${conn.namespace}/${shortName}/run`;
  const callWithText: AbilityCaller['callWithText'] = async (shortName, input, signal) => {
    const ability = info(shortName);
    const name = `${conn.namespace}/${shortName}`;
    if (!ability) {
      throw new SvcError('UNSUPPORTED', `the dashboard does not offer the ability ${name}`, {
        hint: `Update the dashboard, or check the interface namespace (${settingVariable('namespace', conn.product)}).`,
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
    const path = runPath(shortName);
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
        product: conn.product,
      });
    }
    return res.text === undefined ? { body: res.body } : { body: res.body, text: res.text };
  };
  return {
    info,
    splitForQuery(shortName, input, key, values) {
      const ability = info(shortName);
      if (!ability || ability.method === 'POST' || values.length === 0)
        return values.length ? [values.slice()] : [];
      // The largest paging values the client sends, so no page of the piece outgrows the line.
      const paging = ability.properties.has('page') ? { page: 999_999, per_page: 99_999 } : {};
      const rest = bracketQuery({ ...input, ...paging });
      const fixed = requestLineBytes(basePath, ability.method, runPath(shortName), '') + 1 + rest.length;
      const pieces: unknown[][] = [];
      let piece: unknown[] = [];
      let bytes = fixed;
      for (const value of values) {
        const cost = bracketQuery({ [key]: [value] }).length + (piece.length > 0 || rest ? 1 : 0);
        if (piece.length > 0 && bytes + cost > MAX_REQUEST_LINE_BYTES) {
          pieces.push(piece);
          piece = [];
          bytes = fixed;
          bytes += cost - (rest ? 0 : 1);
        } else {
          bytes += cost;
        }
        piece.push(value);
      }
      pieces.push(piece);
      return pieces;
    },
    all: () => [...catalogue.values()],
    declares: (shortName, key) => info(shortName)?.properties.has(key) ?? false,
    call: async (shortName, input, signal) => (await callWithText(shortName, input, signal)).body,
    callWithText,
  };
}
