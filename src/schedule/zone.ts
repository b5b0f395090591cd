import type { LocalTime } from './cron.js';

/**
 * IANA time zones through Node's Intl (full ICU in Node 20's official builds): no zone data of
 * our own, so a zone's rules (daylight saving) are the runtime's.
 */
export function isKnownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A reader of wall-clock time in one zone; build it once per zone, it is asked per update. */
export function localTimeIn(zone: string): (date: Date) => LocalTime {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    weekday: 'short',
  });
  return (date) => {
    const parts: Record<string, string> = {};
    for (const part of format.formatToParts(date)) parts[part.type] = part.value;
    return {
      minute: Number(parts.minute),
      hour: Number(parts.hour) % 24,
      day: Number(parts.day),
      month: Number(parts.month),
      year: Number(parts.year),
      weekday: WEEKDAY_NUMBERS[parts.weekday ?? ''] ?? 0,
    };
  };
}

const WEEKDAY_NUMBERS: Readonly<Record<string, number>> = {
  Sun: 0,
  Mon: 1,
  Tue: 2,
  Wed: 3,
  Thu: 4,
  Fri: 5,
  Sat: 6,
};
