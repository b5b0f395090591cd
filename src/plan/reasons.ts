/** Small wording helpers shared by the planner's reasons and notes (for people only). */
import type { ItemKind, ItemRef, PendingUpdate, SourceRef } from '../types.js';

export function sourceLabel(source: SourceRef): string {
  return `${source.file}:${source.line}`;
}

export function describeItem(item: ItemRef): string {
  return item.kind === 'core' ? 'core' : `${item.kind} ${item.slug}`;
}

/** The dashboard's display name of an item when a pending update carries one, else its slug. */
export function displayName(pending: readonly PendingUpdate[], kind: ItemKind, slug: string): string {
  const update = pending.find((candidate) => candidate.kind === kind && candidate.slug === slug);
  if (update && update.name !== '') return update.name;
  return kind === 'core' ? 'WordPress' : slug;
}
