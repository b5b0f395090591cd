import type { Json } from '../wire/json.js';

// One request to the dashboard and its reply, shared by the transport (http.ts) and its retry
// loop (retrying.ts), which http.ts calls.

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below the base URL, starting with `/`, without query. */
  path: string;
  /** Encoded query string without `?`, or ''. */
  query?: string;
  body?: unknown;
  /** Authorization and other headers; never logged. */
  headers?: Record<string, string>;
  /**
   * Reads and idempotent writes only: repeat on 5xx, 429, timeouts, dropped connections and 2xx
   * bodies that are cut off or not JSON (see retry.ts).
   */
  retry: boolean;
  signal?: AbortSignal | undefined;
  /**
   * For an unpaged answer whose size grows with the fleet (REST `GET /sites`): a size limit
   * the caller computed from the fleet. It only ever raises maxResponseSize, never lowers it.
   */
  fleetSizedLimit?: number;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, undefined when the body was empty or (a non-2xx reply only) not JSON. */
  body: Json | undefined;
  /**
   * Set when a non-2xx reply's body is not JSON, saying what it is without quoting it: `the
   * reply is an HTML page (text/html), not JSON`. (A 2xx reply that is not JSON is an error.)
   */
  notJson?: string;
  /**
   * The body's JSON text exactly as the dashboard sent it, when that text is the body: no
   * credential was masked in it and no key dropped. A front end passing the answer on can send
   * these bytes instead of serialising the body again.
   */
  text?: string;
}
