import type { Reader } from './fleet-parse-items.js';
import type { BatchRecords, FleetSite, NamedRecord } from './fleet-types.js';

/**
 * A site's dashboard tags (`tags: [production, canary]`) and client (`client: Acme`) in a fleet
 * file, by name. Each name becomes one record (`Fleet.records`), numbered from 1 in the order
 * the names first appear, as a dashboard numbers the tags and clients it was given in turn.
 */
export class GroupNames {
  readonly records: BatchRecords = { clients: [], tags: [], costs: [] };
  private readonly tagIds = new Map<string, number>();
  private readonly clientIds = new Map<string, number>();

  /** Reads `raw.tags` and `raw.client` of one site into `site.tagIds` and `site.clientId`. */
  readSite(
    reader: Reader,
    raw: Record<string, unknown>,
    path: Array<string | number>,
    site: FleetSite,
  ): void {
    if (raw.tags !== undefined) {
      if (!Array.isArray(raw.tags)) reader.fail([...path, 'tags'], '`tags` must be a list of tag names');
      const ids = raw.tags.map((name, i) =>
        idOf(this.tagIds, this.records.tags, name, () =>
          reader.fail([...path, 'tags', i], 'a tag name must be a non-empty string'),
        ),
      );
      site.tagIds = [...new Set(ids)].sort((a, b) => a - b);
    }
    if (raw.client !== undefined) {
      if (raw.client_id !== undefined)
        reader.fail([...path, 'client'], 'give `client` (a name) or `client_id`, not both');
      site.clientId = idOf(this.clientIds, this.records.clients, raw.client, () =>
        reader.fail([...path, 'client'], '`client` must be a non-empty client name'),
      );
    }
  }

  /** The records, or undefined when no site named a tag or client. */
  result(): BatchRecords | undefined {
    return this.records.tags.length + this.records.clients.length === 0 ? undefined : this.records;
  }
}

function idOf(ids: Map<string, number>, list: NamedRecord[], name: unknown, bad: () => never): number {
  if (typeof name !== 'string' || name.trim() === '') return bad();
  const known = ids.get(name);
  if (known !== undefined) return known;
  const id = list.length + 1;
  ids.set(name, id);
  list.push({ id, name });
  return id;
}
