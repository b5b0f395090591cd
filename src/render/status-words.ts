/** The words every status view shares: group titles and counts. */
import type { StatusGroup, StatusState } from '../types.js';

export const STATUS_TITLES: Readonly<Record<StatusState, string>> = {
  pending: 'Pending (will run now)',
  soaking: 'Soaking',
  window: 'Waiting for a window',
  held: 'Held',
  quarantined: 'Quarantined',
  failed: 'Failed in the last apply',
  vulnerable: 'Vulnerable',
};

export const count = (n: number): string => n.toLocaleString('en-US');

export function plural(n: number, word: string): string {
  return `${count(n)} ${word}${n === 1 ? '' : 's'}`;
}

/** `3 items on 120 sites`. */
export function groupTotals(group: Pick<StatusGroup, 'items' | 'sites'>): string {
  return `${plural(group.items, 'item')} on ${plural(group.sites, 'site')}`;
}
