import { describe, expect, it } from 'vitest';
import { parseCron } from '../../src/schedule/cron.js';
import { describeAge, durationMs } from '../../src/schedule/duration.js';
import { compileWindow } from '../../src/schedule/window.js';
import { isKnownZone } from '../../src/schedule/zone.js';

function cron(text: string) {
  const parsed = parseCron(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.cron;
}

const at = (hour: number, day = 1, month = 1, weekday = 1) => ({ minute: 30, hour, day, month, weekday });

describe('cron windows', () => {
  it('matches hours, ranges, steps, lists and names', () => {
    expect(cron('* 22-23 * * *').matches(at(22))).toBe(true);
    expect(cron('* 22-23 * * *').matches(at(21))).toBe(false);
    expect(cron('* */6 * * *').matches(at(12))).toBe(true);
    expect(cron('* */6 * * *').matches(at(13))).toBe(false);
    expect(cron('* 1,3 * * *').matches(at(3))).toBe(true);
    expect(cron('* * * jan-mar mon-fri').matches(at(5, 2, 3, 5))).toBe(true);
    expect(cron('* * * jan-mar mon-fri').matches(at(5, 2, 3, 6))).toBe(false);
    expect(cron('* * * * 7').matches(at(5, 1, 1, 0))).toBe(true); // 7 is Sunday too
  });

  it('takes either day field when both are restricted, as cron does', () => {
    const c = cron('* * 1 * mon');
    expect(c.matches(at(0, 1, 1, 3))).toBe(true);
    expect(c.matches(at(0, 9, 1, 1))).toBe(true);
    expect(c.matches(at(0, 9, 1, 3))).toBe(false);
  });

  it('refuses what it cannot read, saying why', () => {
    const message = (text: string) => {
      const parsed = parseCron(text);
      return parsed.ok ? 'ok' : parsed.message;
    };
    expect(message('* 2 * *')).toBe('cron `* 2 * *` has 4 field(s), not 5');
    expect(message('0 2 * * *')).toContain('restricts minutes');
    expect(message('* 5-2 * * *')).toContain('range `5-2` runs backwards');
    expect(message('* * * foo *')).toContain('`foo` is not a number or a name');
    expect(message('* */0 * * *')).toContain('step `0` must be at least 1');
  });

  it('reads the wall clock of the zone, daylight saving included', () => {
    const night = compileWindow({ schedule: ['* 22-23 * * *'], timezone: 'Europe/Berlin' });
    // 21:30 UTC is 22:30 in Berlin in winter (UTC+1) and 23:30 in summer (UTC+2).
    expect(night.isOpen(new Date('2026-01-15T21:30:00Z'))).toBe(true);
    expect(night.isOpen(new Date('2026-07-15T21:30:00Z'))).toBe(true);
    expect(night.isOpen(new Date('2026-07-15T22:30:00Z'))).toBe(false);
    expect(night.isOpen(new Date('2026-01-15T20:30:00Z'))).toBe(false);
    expect(night.describe()).toBe('`* 22-23 * * *` (Europe/Berlin)');
  });

  it('knows IANA zones through Intl', () => {
    expect(isKnownZone('America/New_York')).toBe(true);
    expect(isKnownZone('UTC')).toBe(true);
    expect(isKnownZone('Mars/Olympus')).toBe(false);
  });

  it('reads durations and describes ages', () => {
    expect(durationMs('90m')).toBe(5_400_000);
    expect(durationMs('2w')).toBe(14 * 86_400_000);
    expect(describeAge(3_600_000)).toBe('1h');
    expect(describeAge(3 * 86_400_000 + 7_200_000)).toBe('3d 2h');
  });
});
