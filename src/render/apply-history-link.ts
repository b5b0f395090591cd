import { codeSpan, linkTarget } from './markdown-escape.js';
import type { ArtifactRef } from './plan-comment.js';

/**
 * The line that ends the apply comment (the report the apply template posts on the merged pull
 * request) when the apply appended to the history: the artifact that holds it, linked to the
 * workflow run whose artifacts list it. An artifact's own address exists only once the upload
 * step, which runs after the apply, has made it, so the link is the run page; without a usable
 * address the artifact is named alone.
 */
export function historyArtifactLine(artifact: ArtifactRef, records: number): string {
  const target = artifact.url ? linkTarget(artifact.url) : undefined;
  const where = target ? `[this workflow run](${target})` : 'this workflow run';
  const lines = `${records.toLocaleString('en-US')} record${records === 1 ? '' : 's'}`;
  return (
    `Per-site history of this apply (${lines}, JSON Lines): artifact ${codeSpan(artifact.name)} of ${where}; ` +
    '`svc-gitops history --file FILE` prints it.'
  );
}
