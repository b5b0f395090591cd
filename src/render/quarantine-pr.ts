import type { PlanQuarantine } from '../types.js';
import { codeSpan, escapeMarkdown as esc, fenceFor, markdownUrl } from './markdown-escape.js';
import { holdYaml } from './quarantines.js';

/** A quarantine as the pull request shows it (the plan's view without this plan's counts). */
export type QuarantineEvidence = Omit<PlanQuarantine, 'held_sites' | 'in_desired_state'>;

export interface QuarantinePullRequestInput {
  marker: string;
  /** The desired-state file the holds are added to, as the repository names it. */
  file: string;
  quarantines: readonly QuarantineEvidence[];
  /** The workflow run that found them, when known. */
  runUrl?: string | undefined;
}

export function quarantinePullRequestTitle(quarantines: readonly QuarantineEvidence[]): string {
  const names = quarantines.map((q) => `${q.kind === 'core' ? 'core' : q.slug} ${q.version}`);
  const shown = names.slice(0, 3).join(', ') + (names.length > 3 ? `, +${names.length - 3}` : '');
  return `svc-gitops: quarantine ${shown}`;
}

/**
 * The quarantine pull request's body: per version, what broke where (the evidence), the sites
 * to repair by hand (the dashboard cannot roll an update back), the hold it adds, and how a
 * quarantine is released. Dashboard data is escaped; the fixed words are written as they are.
 */
export function quarantinePullRequestBody(input: QuarantinePullRequestInput): string {
  const lines = [
    input.marker,
    '### ⛔ svc-gitops quarantined versions',
    '',
    `A rollout's health check found these versions breaking sites, so svc-gitops holds them on every site not yet updated (the rollout state holds them until this is merged). Merging adds the holds to ${codeSpan(input.file)}; removing an entry later releases its version. A newer release is not held: it is planned as usual, with its own soak.`,
    '',
  ];
  for (const q of input.quarantines) {
    const item = q.kind === 'core' ? 'core' : `${q.kind} ${codeSpan(q.slug)}`;
    const by = q.wave === undefined ? 'a health check' : `the health check of wave ${codeSpan(q.wave)}`;
    lines.push(`#### ${item} ${esc(q.version)}`, '');
    lines.push(`Found by ${by} at ${esc(q.since)}. Sites to repair by hand:`, '');
    lines.push('| site | address | failed check |', '|---:|---|---|');
    for (const site of q.repair)
      lines.push(`| ${site.site_id} | ${markdownUrl(site.site_url)} | ${esc(site.problem)} |`);
    lines.push('', `Adds the hold ${codeSpan(holdYaml(q))}.`, '');
  }
  if (input.runUrl) lines.push(`Found in ${markdownUrl(input.runUrl)}.`, '');
  const example = "holds:\n  - plugin: akismet/akismet.php\n    sites: [all]\n    versions: ['5.3.7']";
  const fence = fenceFor(example);
  lines.push(
    '<details><summary>How quarantines work</summary>',
    '',
    'A hold with `versions` holds only those target versions:',
    '',
    `${fence}yaml`,
    example,
    fence,
    '',
    'Closing this pull request does not release a version: the rollout state keeps holding it until the desired state does, and the next rollout run opens this pull request again. To decline a quarantine, delete its `quarantine` line from the rollout state file in a reviewed commit.',
    '',
    '</details>',
  );
  return `${lines.join('\n')}\n`;
}
