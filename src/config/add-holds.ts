import { isMap, isScalar, isSeq, parseDocument, Scalar, type YAMLSeq } from 'yaml';
import type { ItemKind } from '../types.js';

/** A version to hold on every site: the entry a quarantine proposes for the desired state. */
export interface VersionHold {
  kind: ItemKind;
  slug: string;
  version: string;
  /** Why, one line: kept in the entry's `reason` (shown in plans). */
  reason: string;
}

/**
 * The desired-state text with a hold of each version appended to `holds` (created when absent),
 * comments and layout of the rest kept: the quarantine pull request's change. Versions are
 * single-quoted, as the schema asks (a bare 9.40 would read as the number 9.4).
 */
export function addVersionHolds(text: string, holds: readonly VersionHold[]): string {
  const doc = parseDocument(text === '' ? 'version: 1\n' : text);
  if (!isMap(doc.contents)) throw new Error('the desired state is not a YAML mapping');
  let list = doc.get('holds', true);
  if (!isSeq(list)) {
    list = doc.createNode([]) as YAMLSeq;
    doc.set('holds', list);
  }
  for (const hold of holds) {
    const entry = doc.createNode({
      [hold.kind]: hold.kind === 'core' ? true : hold.slug,
      sites: ['all'],
      versions: [hold.version],
      reason: hold.reason,
    });
    const sites = isMap(entry) ? entry.get('sites', true) : undefined;
    const versions = isMap(entry) ? entry.get('versions', true) : undefined;
    if (isSeq(sites)) sites.flow = true;
    if (isSeq(versions)) {
      versions.flow = true;
      for (const item of versions.items) if (isScalar(item)) item.type = Scalar.QUOTE_SINGLE;
    }
    (list as YAMLSeq).items.push(entry);
  }
  // As people write flow collections (`[all]`, `{a: 1}`), so the rest of the file reads unchanged.
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}
