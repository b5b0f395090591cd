import type { Notification, NotificationEvent } from './types.js';

/** One line for people per event: the Slack text and the JSON body's `summary`. */
export function eventLine(event: NotificationEvent): string {
  switch (event.event) {
    case 'rollout.halted':
      return `Rollout halted at wave ${event.wave ?? '(all sites)'}: ${count(event.unhealthy.length, 'site')} unhealthy (at most ${event.max_unhealthy} allowed)`;
    case 'quarantine.recorded':
      return `Quarantined ${event.kind} ${event.slug} ${event.version}: it left ${count(event.sites.length, 'site')} unhealthy; repair by hand`;
    case 'vulnerable.no_fix':
      return `Vulnerable, no fix: ${event.kind} ${event.slug} ${event.version} on ${count(event.site_ids.length, 'site')}`;
    case 'apply.failed':
      return event.stopped
        ? `Apply failed: ${count(event.failed, 'action')} failed; stopped (${event.stopped.code})`
        : `Apply failed: ${count(event.failed, 'action')} failed`;
  }
}

export function summaryOf(events: readonly NotificationEvent[]): string {
  return events.map(eventLine).join('\n');
}

/** A Slack incoming-webhook body: `text` (the fallback every client shows) and a section per event. */
export function slackBody(notification: Notification): { text: string; blocks: unknown[] } {
  const head = `svc-gitops on ${notification.dashboard}`;
  return {
    text: `${head}: ${notification.summary.split('\n').join('; ')}`,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: clip(head, 150) } },
      ...notification.events.map((event) => ({
        type: 'section',
        text: { type: 'mrkdwn', text: clip(slackEscape(eventLine(event)), 3000) },
      })),
    ],
  };
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** Slack's mrkdwn reads `<`, `>` and `&` as markup: they are escaped as Slack documents. */
function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
