/**
 * The security view of a plan, which every view shows first (after a halt line): its security
 * updates, then the sites left on a vulnerable version (no fix, or a fix not planned), each with
 * its advisories' CVE ids, CVSS scores and links. The plan lists them most severe first; at most
 * SHOWN entries of each list are written here, the rest counted (the JSON plan has them all).
 * Advisory text comes from a feed: it is escaped like the dashboard's.
 */
import type { Plan, PlanSecurity, SecurityMove } from '../types.js';
import { escapeMarkdown as esc, linkTarget } from './markdown-escape.js';
import { itemLabel, siteList } from './plan-words.js';
import { safeText } from './safe-text.js';

const SHOWN = 25;

type Vulnerable = PlanSecurity['vulnerable'][number];

function title(fix: Vulnerable['fix'] | 'update', count: number): string {
  if (fix === 'update') return `Security updates (${count})`;
  return fix === 'no-fix' ? `Vulnerable, no fix (${count})` : `Vulnerable, fix not planned (${count})`;
}

function advisoriesText(security: PlanSecurity, move: SecurityMove): string {
  return move.advisories
    .map((id) => {
      const advisory = security.advisories[id];
      if (!advisory) return safeText(id);
      const name = safeText(advisory.cve ?? advisory.title, 120);
      const cvss = advisory.cvss === undefined ? '' : ` CVSS ${advisory.cvss}`;
      return `${name}${cvss} ${safeText(advisory.link)}`;
    })
    .join('; ');
}

function advisoriesMarkdown(security: PlanSecurity, move: SecurityMove): string {
  return move.advisories
    .map((id) => {
      const advisory = security.advisories[id];
      if (!advisory) return esc(id);
      const name = esc(advisory.cve ?? advisory.title, 120);
      const target = linkTarget(advisory.link);
      const cvss = advisory.cvss === undefined ? '' : ` (CVSS ${advisory.cvss})`;
      return `${target ? `[${name}](${target})` : name}${cvss}`;
    })
    .join(', ');
}

function groups(security: PlanSecurity): Array<[Vulnerable['fix'] | 'update', SecurityMove[]]> {
  return (
    [
      ['update', security.updates],
      ['no-fix', security.vulnerable.filter((move) => move.fix === 'no-fix')],
      ['not-planned', security.vulnerable.filter((move) => move.fix === 'not-planned')],
    ] as Array<[Vulnerable['fix'] | 'update', SecurityMove[]]>
  ).filter(([, moves]) => moves.length > 0);
}

function moveText(move: SecurityMove, fix: Vulnerable['fix'] | 'update'): string {
  const version = fix === 'update' ? `${move.from} → ${move.to}` : move.from;
  return `${itemLabel(move, safeText)} ${safeText(version)}`;
}

export function securityTextLines(plan: Plan): string[] {
  const { security } = plan;
  if (!security) return [];
  const lines: string[] = [];
  for (const [fix, moves] of groups(security)) {
    lines.push(`${title(fix, moves.length)}:`);
    for (const move of moves.slice(0, SHOWN))
      lines.push(
        `  ${fix === 'update' ? '+' : '!'} ${moveText(move, fix)} on ${siteList(move.site_ids)}: ${advisoriesText(security, move)}`,
      );
    if (moves.length > SHOWN) lines.push(`  … and ${moves.length - SHOWN} more (see the JSON plan)`);
  }
  return lines;
}

export function securityMarkdownLines(plan: Plan): string[] {
  const { security } = plan;
  if (!security) return [];
  const lines: string[] = [];
  for (const [fix, moves] of groups(security)) {
    lines.push(
      `### ${title(fix, moves.length)}`,
      '',
      '| item | version | sites | advisories |',
      '|---|---|---|---|',
    );
    for (const move of moves.slice(0, SHOWN)) {
      const version = fix === 'update' ? `${esc(move.from)} → ${esc(move.to)}` : esc(move.from);
      lines.push(
        `| ${itemLabel(move, esc)} | ${version} | ${esc(siteList(move.site_ids))} | ${advisoriesMarkdown(security, move)} |`,
      );
    }
    if (moves.length > SHOWN) lines.push('', `… and ${moves.length - SHOWN} more (see the JSON plan).`);
    lines.push('');
  }
  return lines;
}
