/** One line of the real-dashboard harness's request log: `time method uri status NNNms`. */
export interface LoggedRequest {
  method: string;
  uri: string;
  status: number;
  ms: number;
}

export function parseRequestLog(text: string): LoggedRequest[] {
  const out: LoggedRequest[] = [];
  for (const line of text.split('\n')) {
    const match = /^\S+ (\S+) (\S+) (\d+) (\d+)ms$/.exec(line.trim());
    if (match?.[1] && match[2] && match[3] && match[4])
      out.push({ method: match[1], uri: match[2], status: Number(match[3]), ms: Number(match[4]) });
  }
  return out;
}

/** The route a request counts under: the ability's name, or the REST route's first part. */
export function routeOf(uri: string): string {
  const path = uri.split('?')[0] ?? uri;
  const ability = /\/abilities\/[^/]+\/([^/]+)\/run$/.exec(path);
  if (ability?.[1]) return ability[1];
  if (/\/wp-abilities\/v1\/abilities$/.test(path)) return 'abilities catalogue';
  const rest = /\/wp-json\/[^/]+\/v2\/(.*)$/.exec(path);
  if (rest?.[1] !== undefined) return `REST /${rest[1].replace(/\/\d+(\/|$)/g, '/{id}$1')}`;
  return path;
}
