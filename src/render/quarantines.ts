import type { PlanQuarantine } from '../types.js';
import { codeSpan, escapeMarkdown, markdownUrl } from './markdown-escape.js';
import { safeText } from './safe-text.js';

/** Sites to repair named per quarantine; the rest are counted. */
const NAMED = 5;

interface Words {
  text: (value: string) => string;
  url: (value: string) => string;
  code: (value: string) => string;
}

/**
 * One quarantined version: what is held where, why, which sites to repair by hand (the
 * dashboard cannot roll an update back), and how it is released. Fixed words as written; the
 * data made safe for the view.
 */
function quarantineWords(q: PlanQuarantine, words: Words): string {
  const item = q.kind === 'core' ? 'core' : `${q.kind} ${words.text(q.slug)}`;
  const by = q.wave === undefined ? 'a health check' : `the health check of wave ${words.text(q.wave)}`;
  const repair = q.repair
    .slice(0, NAMED)
    .map((site) => `site ${site.site_id} ${words.url(site.site_url)} (${words.text(site.problem)})`)
    .join(', ');
  const more = q.repair.length > NAMED ? `, and ${q.repair.length - NAMED} more` : '';
  const held = `held on ${q.held_sites} site${q.held_sites === 1 ? '' : 's'} of this plan`;
  const release = q.in_desired_state
    ? 'The desired state holds it: remove that hold to release it.'
    : `Not yet in the desired state: add the hold ${words.code(holdYaml(q))} (the rollout's pull request proposes it); until then the rollout state holds it.`;
  return `${item} ${words.text(q.version)}: ${held}; ${by} found it breaking sites at ${words.text(q.since)}. Repair by hand: ${repair}${more}. ${release}`;
}

/** The desired-state hold that quarantines `q` (one line of flow YAML). */
export function holdYaml(q: Pick<PlanQuarantine, 'kind' | 'slug' | 'version'>): string {
  const item = q.kind === 'core' ? 'core: true' : `${q.kind}: ${JSON.stringify(q.slug)}`;
  return `{${item}, sites: [all], versions: [${JSON.stringify(q.version)}]}`;
}

export function quarantineTextLines(quarantines: readonly PlanQuarantine[]): string {
  if (quarantines.length === 0) return '';
  const words = { text: (v: string) => safeText(v), url: (v: string) => safeText(v), code: (v: string) => v };
  return `Quarantined versions (${quarantines.length}):\n${quarantines.map((q) => `  ${quarantineWords(q, words)}\n`).join('')}`;
}

export function quarantineMarkdownLines(quarantines: readonly PlanQuarantine[]): string[] {
  if (quarantines.length === 0) return [];
  const words = { text: (v: string) => escapeMarkdown(v), url: markdownUrl, code: codeSpan };
  return [
    `### ⛔ Quarantined versions (${quarantines.length})`,
    '',
    ...quarantines.map((q) => `- ${quarantineWords(q, words)}`),
    '',
  ];
}
