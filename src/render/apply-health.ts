import type { ApplyRun, WaveHealth } from '../types.js';
import { escapeMarkdown, markdownUrl } from './markdown-escape.js';
import { safeText } from './safe-text.js';

/** Unhealthy sites listed per wave; the rest are counted. */
const LIST_LIMIT = 20;

/** The wave whose health check stopped the rollout, if one did. */
export function stoppingWave(result: ApplyRun): WaveHealth | undefined {
  return result.health?.find((entry) => entry.stopped);
}

const waveName = (entry: WaveHealth) => entry.wave ?? '(default)';

function summary(entry: WaveHealth): string {
  const verdict = entry.stopped
    ? `more than ${entry.max_unhealthy} allowed: later waves were not started`
    : entry.unhealthy.length > 0
      ? `within the ${entry.max_unhealthy} allowed`
      : 'healthy';
  return `wave ${waveName(entry)}: ${entry.checked} updated site(s) checked, ${entry.unhealthy.length} unhealthy (${verdict})`;
}

function siteLine(site: WaveHealth['unhealthy'][number]): string {
  return `site ${site.site_id} ${site.site_url}: ${siteProblem(site)}`;
}

/** The address a code span (markdownUrl): it copies byte for byte and never autolinks. */
function siteLineMarkdown(site: WaveHealth['unhealthy'][number]): string {
  return `site ${site.site_id} ${markdownUrl(site.site_url)}: ${escapeMarkdown(siteProblem(site))}`;
}

function siteProblem(site: WaveHealth['unhealthy'][number]): string {
  const after = site.after && site.after.length > 0 ? ` after ${site.after.join(', ')}` : '';
  return `${site.problem}${after}`;
}

export function healthText(result: ApplyRun): string[] {
  if (!result.health) return [];
  const lines = ['', 'Health checks:'];
  for (const entry of result.health) {
    lines.push(`  ${safeText(summary(entry))}`);
    for (const site of entry.unhealthy.slice(0, LIST_LIMIT)) lines.push(`    - ${safeText(siteLine(site))}`);
    if (entry.unhealthy.length > LIST_LIMIT)
      lines.push(`    … and ${entry.unhealthy.length - LIST_LIMIT} more`);
  }
  return lines;
}

export function healthMarkdown(result: ApplyRun): string[] {
  if (!result.health) return [];
  const lines = ['', '**Health checks**', ''];
  for (const entry of result.health) {
    lines.push(
      `- ${entry.stopped ? '❌' : entry.unhealthy.length > 0 ? '⚠️' : '✅'} ${escapeMarkdown(summary(entry))}`,
    );
    for (const site of entry.unhealthy.slice(0, LIST_LIMIT)) lines.push(`  - ${siteLineMarkdown(site)}`);
    if (entry.unhealthy.length > LIST_LIMIT)
      lines.push(`  - … and ${entry.unhealthy.length - LIST_LIMIT} more`);
  }
  return lines;
}
