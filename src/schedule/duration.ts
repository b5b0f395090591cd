/** Durations as the desired state writes them: a whole number and one unit, `90m`, `24h`, `3d`, `2w`. */
export const DURATION_PATTERN = '^[0-9]+(m|h|d|w)$';

const UNIT_MS: Readonly<Record<string, number>> = {
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** Milliseconds of a duration the schema has already checked. */
export function durationMs(text: string): number {
  const match = /^(\d+)([mhdw])$/.exec(text);
  if (!match) throw new Error(`internal: unchecked duration ${text}`);
  return Number(match[1]) * (UNIT_MS[match[2] as string] as number);
}

/** `3d 4h`, `50m`: an age for people, rounded down to minutes. */
export function describeAge(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  if (days > 0) return hours > 0 ? `${days}d ${hours}h` : `${days}d`;
  if (hours > 0) return rest > 0 ? `${hours}h ${rest}m` : `${hours}h`;
  return `${rest}m`;
}
