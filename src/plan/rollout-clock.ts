import type { WaveRecord } from '../types.js';

/**
 * When a wave's `healthy_for` counts from: the latest of its last apply, the first sighting of
 * it done without a record, and the last health check that found it unhealthy (every unhealthy
 * observation restarts the count). Undefined: no record at all.
 */
export function waveClock(
  record: WaveRecord | undefined,
): { at: string; since: 'updated' | 'done-seen' | 'unhealthy' } | undefined {
  if (!record) return undefined;
  const candidates = [
    { at: record.updated_at, since: 'updated' as const },
    { at: record.done_seen_at, since: 'done-seen' as const },
    { at: record.unhealthy_at, since: 'unhealthy' as const },
  ].filter((c): c is { at: string; since: 'updated' | 'done-seen' | 'unhealthy' } => c.at !== undefined);
  if (candidates.length === 0) return undefined;
  return candidates.reduce((a, b) => (Date.parse(b.at) > Date.parse(a.at) ? b : a));
}
