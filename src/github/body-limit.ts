import { capBody, GITHUB_BODY_LIMIT } from '../render/index.js';
import { hasMarker } from './marker.js';

// Bodies are cut by render's capBody (comment-budget.ts); this only keeps the marker line first.
/** The body starting with its marker line (prepended when missing), cut below GitHub's limit. */
export function markedBody(markerLine: string, body: string): { body: string; truncated: boolean } {
  const marked = hasMarker(body, markerLine) ? body.trimStart() : `${markerLine}\n${body}`;
  if (marked.length < GITHUB_BODY_LIMIT) return { body: marked, truncated: false };
  const head = `${markerLine}\n`;
  const capped = capBody({ head, main: marked.slice(head.length), tail: '' });
  return { body: capped.body, truncated: capped.truncated };
}
