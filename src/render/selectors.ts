/**
 * The plan's tag and client selectors with their site counts: one line under the plan's header
 * in every view, so a reviewer sees what `tag:production` meant when the plan was made.
 */
import type { PlanSelector } from '../types.js';
import { codeSpan } from './markdown-escape.js';
import { safeText } from './safe-text.js';

const sites = (n: number) => (n === 1 ? '1 site' : `${n} sites`);

export function selectorsText(selectors: readonly PlanSelector[] | undefined): string | undefined {
  if (!selectors) return undefined;
  return `selectors: ${selectors.map((s) => `${safeText(s.selector)} ${sites(s.sites)}`).join(', ')}`;
}

export function selectorsMarkdown(selectors: readonly PlanSelector[] | undefined): string | undefined {
  if (!selectors) return undefined;
  return `Selectors: ${selectors.map((s) => `${codeSpan(s.selector)} ${sites(s.sites)}`).join(', ')}.`;
}
