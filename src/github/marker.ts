import type { TokenUser } from './client.js';

/**
 * Hidden HTML markers that identify the comments and issues svc-gitops owns. A marker is the first
 * line of the body it marks; a body is ours only when it starts with the exact marker line, so a
 * person quoting our comment (`> <!-- … -->`) or another config's marker never matches.
 *
 * The key is percent-encoded: `>` and spaces cannot end the comment early, and distinct keys
 * (config paths, dashboard URLs) give distinct markers.
 */
export type MarkerKind = 'plan' | 'drift' | 'quarantine' | 'status';

export function marker(kind: MarkerKind, key: string): string {
  return `<!-- svc-gitops:${kind} ${encodeURIComponent(key)} -->`;
}

/** True when `body` is marked with exactly this marker (first line, ignoring leading blank space). */
export function hasMarker(body: unknown, markerLine: string): boolean {
  if (typeof body !== 'string') return false;
  const text = body.trimStart();
  return text === markerLine || text.startsWith(`${markerLine}\n`) || text.startsWith(`${markerLine}\r\n`);
}

/**
 * True when a comment or issue is ours: marked, and written by a bot account (the workflow
 * token's `github-actions[bot]`, or a GitHub App), or by the person whose personal access token
 * this run uses (`tokenUser`, compared by account id and asked only for a marked item a person
 * wrote). Anyone who can comment can copy a marker; another person's marked comment or issue is
 * never adopted, edited or closed.
 */
export async function isOwnMarked(
  item: { body?: unknown; user?: { type?: unknown; id?: unknown } | null },
  markerLine: string,
  tokenUser: () => Promise<TokenUser | undefined>,
): Promise<boolean> {
  if (!hasMarker(item.body, markerLine)) return false;
  if (item.user?.type === 'Bot') return true;
  if (item.user?.type !== 'User' || typeof item.user.id !== 'number') return false;
  return (await tokenUser())?.id === item.user.id;
}

/**
 * The marker key of a config path: relative to the repository root, forward slashes, no `./`,
 * so the same config planned from Windows or Linux, or named `./a.yaml` or `a.yaml`, finds the
 * same comment.
 */
export function configKey(configPath: string, repositoryRoot: string): string {
  const slashes = (p: string) => p.replace(/\\/g, '/');
  const root = slashes(repositoryRoot).replace(/\/+$/, '');
  let path = slashes(configPath);
  if (root && path.startsWith(`${root}/`)) path = path.slice(root.length + 1);
  path = path
    .replace(/^(\.\/)+/, '')
    .replace(/\/{2,}/g, '/')
    .replace(/\/$/, '');
  return path === '' || path === '.' ? '.' : path;
}
