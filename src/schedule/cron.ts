/**
 * Cron expressions for maintenance windows, read as Renovate reads its `schedule`: five fields
 * (minute hour day-of-month month day-of-week), and a window is open during every minute the
 * expression matches. The minute field must be `*`: a window is whole hours, so `0 2 * * *`
 * (one minute a day, a scheduled run would almost never hit it) is refused with a hint.
 *
 * Fields take `*`, numbers, ranges `a-b`, steps `*\/n` and `a-b/n`, lists `a,b`, and names for
 * months (jan…dec) and weekdays (sun…sat; 0 and 7 are Sunday). As in cron, when both day fields
 * are restricted a day matches either of them.
 */

export interface LocalTime {
  minute: number;
  hour: number;
  day: number;
  month: number;
  /** For showing a moment; cron expressions have no year field. */
  year?: number;
  /** 0 = Sunday. */
  weekday: number;
}

export interface Cron {
  text: string;
  matches(time: LocalTime): boolean;
}

export type CronResult = { ok: true; cron: Cron } | { ok: false; message: string; hint: string };

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const FIELDS: readonly FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS },
  { name: 'day of week', min: 0, max: 7, names: WEEKDAYS },
];

const SHAPE_HINT =
  'write five fields: minute hour day-of-month month day-of-week, e.g. `* 22-23 * * mon-fri`';

export function parseCron(text: string): CronResult {
  const fields = text.trim().split(/\s+/);
  if (fields.length !== 5) {
    return { ok: false, message: `cron \`${text}\` has ${fields.length} field(s), not 5`, hint: SHAPE_HINT };
  }
  if (fields[0] !== '*') {
    return {
      ok: false,
      message: `cron \`${text}\` restricts minutes: a window is open for whole hours`,
      hint: `use \`*\` for the minute field (\`* ${fields.slice(1).join(' ')}\`), as Renovate's schedule does`,
    };
  }
  const sets: Array<Set<number>> = [];
  for (let i = 0; i < 5; i++) {
    const spec = FIELDS[i] as FieldSpec;
    const parsed = parseField(fields[i] as string, spec);
    if (typeof parsed === 'string') {
      return { ok: false, message: `cron \`${text}\`: ${spec.name} ${parsed}`, hint: SHAPE_HINT };
    }
    sets.push(parsed);
  }
  const [, hours, days, months, weekdays] = sets as [
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
  ];
  if (weekdays.has(7)) weekdays.add(0);
  const dayRestricted = fields[2] !== '*';
  const weekdayRestricted = fields[4] !== '*';
  return {
    ok: true,
    cron: {
      text,
      matches(time) {
        if (!hours.has(time.hour) || !months.has(time.month)) return false;
        const dayOk = days.has(time.day);
        const weekdayOk = weekdays.has(time.weekday);
        if (dayRestricted && weekdayRestricted) return dayOk || weekdayOk;
        return dayOk && weekdayOk;
      },
    },
  };
}

/** The values one field selects, or what is wrong with it. */
function parseField(field: string, spec: FieldSpec): Set<number> | string {
  const values = new Set<number>();
  for (const part of field.split(',')) {
    const match = /^([^/]+)(?:\/(\d+))?$/.exec(part);
    if (!match) return `\`${part}\` is not a value, range or step`;
    const [, range, stepText] = match as unknown as [string, string, string | undefined];
    const step = stepText === undefined ? 1 : Number(stepText);
    if (step < 1) return `step \`${stepText}\` must be at least 1`;
    let low: number;
    let high: number;
    if (range === '*') {
      low = spec.min;
      high = spec.name === 'day of week' ? 6 : spec.max;
    } else {
      const ends = range.split('-');
      if (ends.length > 2) return `\`${range}\` is not a range`;
      const first = fieldValue(ends[0] as string, spec);
      const last = ends.length === 2 ? fieldValue(ends[1] as string, spec) : first;
      if (typeof first === 'string') return first;
      if (typeof last === 'string') return last;
      if (last < first) return `range \`${range}\` runs backwards`;
      low = first;
      // `5/15` means from 5 to the end in steps of 15, as in cron.
      high = ends.length === 1 && stepText !== undefined ? spec.max : last;
    }
    for (let v = low; v <= high; v += step) values.add(v);
  }
  return values;
}

function fieldValue(text: string, spec: FieldSpec): number | string {
  const named = spec.names?.indexOf(text.toLowerCase()) ?? -1;
  const value =
    named >= 0 ? named + (spec.name === 'month' ? 1 : 0) : /^\d+$/.test(text) ? Number(text) : NaN;
  if (Number.isNaN(value)) return `\`${text}\` is not a number${spec.names ? ' or a name' : ''}`;
  if (value < spec.min || value > spec.max) return `${value} is outside ${spec.min}-${spec.max}`;
  return value;
}
