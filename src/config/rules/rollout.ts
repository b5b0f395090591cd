import type { Diagnostic } from '../../errors.js';
import { isKnownZone, parseCron } from '../../schedule/index.js';
import { didYouMean } from '../did-you-mean.js';
import type { RawWindow } from '../model.js';
import { diagnostic } from '../places.js';
import type { Rule, RuleContext } from './context.js';

/** Every maintenance window written in the desired state (policies and waves). */
function everyWindow(ctx: RuleContext): RawWindow[] {
  const windows: RawWindow[] = [];
  for (const policy of ctx.merged.policies) if (policy.window) windows.push(policy.window);
  for (const wave of ctx.merged.waves) if (wave.window) windows.push(wave.window);
  return windows;
}

/** A window's cron expressions must parse: a bad one would leave its updates waiting forever. */
export const badCron: Rule = {
  name: 'bad-cron',
  check(ctx) {
    const out: Diagnostic[] = [];
    for (const window of everyWindow(ctx)) {
      for (const { value, place } of window.schedule) {
        const parsed = parseCron(value);
        if (parsed.ok) continue;
        out.push(
          diagnostic(ctx.locate, { rule: 'bad-cron', message: parsed.message, place, hint: parsed.hint }),
        );
      }
    }
    return out;
  },
};

/** Zone names a person is likely to mean, for the hint. */
function zoneCandidates(): string[] {
  return typeof Intl.supportedValuesOf === 'function'
    ? Intl.supportedValuesOf('timeZone').concat('UTC')
    : ['UTC'];
}

/** A window's zone must be an IANA zone the runtime knows. */
export const unknownZone: Rule = {
  name: 'unknown-zone',
  check(ctx) {
    const out: Diagnostic[] = [];
    for (const { timezone } of everyWindow(ctx)) {
      if (isKnownZone(timezone.value)) continue;
      const suggestion = didYouMean(timezone.value, zoneCandidates());
      out.push(
        diagnostic(ctx.locate, {
          rule: 'unknown-zone',
          message: `unknown time zone \`${timezone.value}\``,
          place: timezone.place,
          hint: suggestion ?? 'use an IANA zone name such as `Europe/Berlin`, `America/New_York` or `UTC`',
        }),
      );
    }
    return out;
  },
};

/** `after.wave` must name a wave that comes before this one (the rollout runs in order). */
export const unknownWave: Rule = {
  name: 'unknown-wave',
  check({ merged, locate }) {
    const out: Diagnostic[] = [];
    const names = merged.waves.map((wave) => wave.name);
    merged.waves.forEach((wave, position) => {
      if (!wave.after) return;
      const { value, place } = wave.after.wave;
      const at = names.indexOf(value);
      if (at >= 0 && at < position) return;
      const earlier = names.slice(0, position);
      const message =
        at < 0
          ? `wave \`${wave.name}\` starts after unknown wave \`${value}\``
          : `wave \`${wave.name}\` starts after \`${value}\`, which is not an earlier wave`;
      const hint =
        (at < 0 ? didYouMean(value, earlier) : undefined) ??
        (earlier.length > 0
          ? `name one of the waves before it: ${earlier.map((n) => `\`${n}\``).join(', ')}`
          : 'the first wave cannot wait for another: remove `after`');
      out.push(diagnostic(locate, { rule: 'unknown-wave', message, place, hint }));
    });
    return out;
  },
};
