/**
 * Maintenance windows and durations: the five-field cron matcher, IANA zones through `Intl`, and
 * durations (`3d`). Used by config's rules and the planner, through this file only.
 */
export { type Cron, type CronResult, type LocalTime, parseCron } from './cron.js';
export { DURATION_PATTERN, describeAge, durationMs } from './duration.js';
export { type CompiledWindow, compileWindow } from './window.js';
export { isKnownZone, localTimeIn } from './zone.js';
