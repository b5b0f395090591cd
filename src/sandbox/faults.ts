import { createRandom, type Random } from './random.js';

export type FaultKind = 'latency' | 'status' | 'rate-limit' | 'reset' | 'refuse' | 'oversized' | 'slow-body';

/**
 * One fault rule. A rule matches a request by `route` (substring of the path), `ability`
 * (name with or without namespace) and `method`; then `skip` lets the first N matches pass,
 * `times` caps how often it fires, and `rate` (seeded, deterministic) fires it on a fraction.
 */
export interface FaultRule {
  kind: FaultKind;
  rate?: number;
  route?: string;
  ability?: string;
  method?: string;
  skip?: number;
  times?: number;
  /** `status`, `rate-limit`, `reset`: run the handler first (its side effects happen), then fail. */
  after?: boolean;
  /** `status`: HTTP status, default 503. */
  status?: number;
  /** `rate-limit`: Retry-After seconds, default 1. */
  retryAfter?: number;
  /**
   * `latency`: delay before handling (default 200 ms); `slow-body`: delay between chunks (50 ms);
   * `refuse`: how long the listener stays closed after resetting this request (500 ms).
   */
  delayMs?: number;
  /** `oversized`: total body bytes (default 11 MiB); `slow-body`: chunk size (default 256). */
  bytes?: number;
  /** `oversized`: stream without Content-Length. */
  chunked?: boolean;
}

export const FAULT_KINDS: readonly FaultKind[] = [
  'latency',
  'status',
  'rate-limit',
  'reset',
  'refuse',
  'oversized',
  'slow-body',
];

interface RuleState {
  rule: FaultRule;
  random: Random;
  matched: number;
  fired: number;
}

export interface FaultTarget {
  method: string;
  path: string;
  ability?: string | undefined;
}

/** Decides per request which rules fire; the same seed and request order give the same faults. */
export class FaultInjector {
  private states: RuleState[] = [];
  constructor(
    rules: FaultRule[],
    private readonly seed: number,
  ) {
    this.replace(rules);
  }

  replace(rules: FaultRule[]): void {
    this.states = rules.map((rule, index) => ({
      rule,
      random: createRandom(this.seed * 7919 + index),
      matched: 0,
      fired: 0,
    }));
  }

  rules(): FaultRule[] {
    return this.states.map((s) => s.rule);
  }

  decide(target: FaultTarget): FaultRule[] {
    const fired: FaultRule[] = [];
    for (const state of this.states) {
      const { rule } = state;
      if (rule.method && rule.method.toUpperCase() !== target.method) continue;
      if (rule.route && !target.path.includes(rule.route)) continue;
      if (rule.ability && !(target.ability === rule.ability || target.ability?.endsWith(`/${rule.ability}`)))
        continue;
      state.matched += 1;
      if (state.matched <= (rule.skip ?? 0)) continue;
      if (rule.times !== undefined && state.fired >= rule.times) continue;
      if (rule.rate !== undefined && rule.rate < 1 && state.random.next() >= rule.rate) continue;
      state.fired += 1;
      fired.push(rule);
    }
    return fired;
  }
}

/** Checks rules given at run time (PUT /__sandbox/faults); returns a message or undefined. */
export function faultRulesProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return 'faults must be a JSON array of rules';
  for (const [index, rule] of value.entries()) {
    if (typeof rule !== 'object' || rule === null) return `rule ${index} is not an object`;
    const kind = (rule as { kind?: unknown }).kind;
    if (!FAULT_KINDS.includes(kind as FaultKind))
      return `rule ${index}: kind must be one of ${FAULT_KINDS.join(', ')}`;
    const rate = (rule as { rate?: unknown }).rate;
    if (rate !== undefined && (typeof rate !== 'number' || rate < 0 || rate > 1))
      return `rule ${index}: rate must be 0..1`;
  }
  return undefined;
}
