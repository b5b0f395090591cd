import type { UpdateWindow } from '../types.js';
import { type Cron, parseCron } from './cron.js';
import { localTimeIn } from './zone.js';

/**
 * A maintenance window compiled once: open at a moment when any of its cron expressions matches
 * the wall-clock time in its zone. The config rules have checked every expression and the zone.
 */
export interface CompiledWindow {
  isOpen(at: Date): boolean;
  /** `* 22-23 * * * or * 0-5 * * * (Europe/Berlin)`, for plan notes. */
  describe(): string;
  /** The first moment at or after `at` when the window is open; undefined within a year. */
  nextOpen(at: Date): Date | undefined;
  /** `2026-11-28 02:00 Europe/Berlin (2026-11-28T01:00:00.000Z)`: a moment in the zone and in UTC. */
  describeMoment(at: Date): string;
}

/** Windows are whole hours in their zone; zones are offset by whole quarter hours from UTC. */
const STEP_MS = 15 * 60_000;
const SEARCH_MS = 366 * 86_400_000;

export function compileWindow(window: UpdateWindow): CompiledWindow {
  const crons: Cron[] = window.schedule.map((text) => {
    const parsed = parseCron(text);
    if (!parsed.ok) throw new Error(`internal: unchecked cron ${text}: ${parsed.message}`);
    return parsed.cron;
  });
  const localTime = localTimeIn(window.timezone);
  return {
    isOpen(at) {
      const time = localTime(at);
      return crons.some((cron) => cron.matches(time));
    },
    describe() {
      return `${window.schedule.map((s) => `\`${s}\``).join(' or ')} (${window.timezone})`;
    },
    nextOpen(at) {
      const open = (time: Date) => crons.some((cron) => cron.matches(localTime(time)));
      if (open(at)) return at;
      const start = Math.ceil(at.getTime() / STEP_MS) * STEP_MS;
      for (let t = start; t <= at.getTime() + SEARCH_MS; t += STEP_MS) {
        if (open(new Date(t))) return new Date(t);
      }
      return undefined;
    },
    describeMoment(at) {
      const local = localTime(at);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${local.year}-${pad(local.month)}-${pad(local.day)} ${pad(local.hour)}:${pad(local.minute)} ${window.timezone} (${at.toISOString()})`;
    },
  };
}
