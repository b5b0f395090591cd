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
}

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
  };
}
