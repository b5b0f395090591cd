import { VERSION } from '../engine/index.js';

export { VERSION };

/**
 * Where a schema of this release is published: the npm package's own file on a CDN that serves
 * every published version of every npm package at a fixed address. The address names the
 * version, so a committed reference never changes under the file that holds it, and it resolves
 * on every checkout, wherever (or whether) svc-gitops is installed.
 */
export function publishedSchemaUrl(file: string): string {
  return `https://cdn.jsdelivr.net/npm/svc-gitops@${VERSION}/schemas/${file}`;
}
