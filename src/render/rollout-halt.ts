import type { RolloutHalt } from '../types.js';
import { escapeMarkdown, markdownUrl } from './markdown-escape.js';
import { safeText } from './safe-text.js';

/** Sites named on the halt line; the rest are counted. */
const NAMED = 3;

interface Words {
  text: (value: string) => string;
  url: (value: string) => string;
}

/**
 * `Rollout halted at wave canary: 1 site unhealthy since T (site 2 https://…: offline)`: the
 * first line of every view while a rollout is held, so nobody mistakes it for a quiet day.
 * The fixed words are written as they are; only the data is made safe.
 */
function haltWords(halt: RolloutHalt, words: Words): string {
  const count = halt.unhealthy.length;
  const sites = halt.unhealthy
    .slice(0, NAMED)
    .map((site) => `site ${site.site_id} ${words.url(site.site_url)}: ${words.text(site.problem)}`)
    .join('; ');
  const more = count > NAMED ? `; and ${count - NAMED} more` : '';
  return `Rollout halted at wave ${words.text(halt.wave)}: ${count} site${count === 1 ? '' : 's'} unhealthy since ${words.text(halt.since)} (${sites}${more})`;
}

export function haltText(halt: RolloutHalt): string {
  return haltWords(halt, { text: safeText, url: safeText });
}

export function haltMarkdown(halt: RolloutHalt): string {
  return `**${haltWords(halt, { text: (value) => escapeMarkdown(value), url: markdownUrl })}**`;
}
