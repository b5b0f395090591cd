import type { HealthRules } from '../types.js';

/** What a health check reports about one site (the dashboard's check-site-v1). */
export interface SiteReading {
  online: boolean;
  httpCode: number;
  /** Seconds. */
  responseTime: number;
  /** The dashboard answered this site's check with an error. */
  error?: string | undefined;
}

/** The default health rules: online and a 2xx or 3xx answer. */
export const DEFAULT_HEALTH: HealthRules = { status: ['2xx', '3xx'], maxUnhealthy: 0 };

/**
 * What is wrong with a site, or undefined when it is healthy: it must be checked without error,
 * online, answer with an accepted status, and (with `responseTimeFactor` and a reading from
 * before the wave) answer within that multiple of its earlier time. Times below 100 ms count as
 * 100 ms, so a fast site's jitter is no failure.
 */
export function siteProblem(
  reading: SiteReading,
  rules: HealthRules,
  before?: SiteReading,
): string | undefined {
  if (reading.error !== undefined) return `check failed: ${reading.error}`;
  if (!reading.online) return reading.httpCode > 0 ? `offline (HTTP ${reading.httpCode})` : 'offline';
  if (!statusAccepted(reading.httpCode, rules.status)) return `HTTP ${reading.httpCode}`;
  const factor = rules.responseTimeFactor;
  if (factor !== undefined && before && before.error === undefined && before.online) {
    const floor = 0.1;
    if (Math.max(reading.responseTime, floor) > factor * Math.max(before.responseTime, floor)) {
      return `response time ${seconds(reading.responseTime)} (${seconds(before.responseTime)} before; at most ${factor}x)`;
    }
  }
  return undefined;
}

function statusAccepted(code: number, accepted: readonly string[]): boolean {
  const text = String(code);
  return accepted.some((entry) =>
    entry.endsWith('xx') ? text.length === 3 && text[0] === entry[0] : entry === text,
  );
}

function seconds(value: number): string {
  return `${value.toFixed(2)} s`;
}
