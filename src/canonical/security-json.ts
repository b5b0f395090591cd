/**
 * The canonical JSON of a plan's `security` section, written by hand: a fleet's section lists
 * thousands of moves, each with its site ids, and the general writer walks every site id to
 * collect keys and then asks JSON.stringify to reorder every move (its keys are built in
 * reading order, not sorted). Here each move is written from its fields in code-unit order.
 *
 * Only a section of plain records holding exactly the planner's fields, each of its type, is
 * written here; for anything else the writer answers undefined and the caller uses the general
 * writer (canonical-json.ts), so the text is always exactly the canonical JSON. Tests compare
 * the two on hostile sections.
 */
import { isPlainRecord } from './action-json.js';
import { canonicalMemberJson } from './canonical-json.js';

const SECTION_KEYS = ['advisories', 'feed', 'updates', 'vulnerable'];
const MOVE_KEYS = ['advisories', 'from', 'kind', 'name', 'site_ids', 'slug', 'to'];
const VULNERABLE_KEYS = ['advisories', 'fix', 'from', 'kind', 'name', 'site_ids', 'slug', 'to'];
/** The fields of a move other than its two lists, in code-unit order. */
const TEXT_FIELDS = ['from', 'kind', 'name'] as const;

function hasKeys(record: Record<string, unknown>, expected: readonly string[]): boolean {
  // Own enumerable keys, sorted as canonical JSON sorts them (UTF-16 code units).
  const keys = Object.keys(record).sort();
  if (keys.length !== expected.length) return false;
  for (let i = 0; i < keys.length; i++) if (keys[i] !== expected[i]) return false;
  return true;
}

/** `[1,2,3]` for an array (no holes) of finite numbers; undefined for anything else. */
function numberList(value: unknown): string | undefined {
  if (!Array.isArray(value) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
  for (let i = 0; i < value.length; i++) {
    const entry: unknown = value[i];
    if (typeof entry !== 'number' || !Number.isFinite(entry) || !(i in value)) return undefined;
  }
  // A finite number's JSON is its String() form (-0 included: "0"), which join writes.
  return `[${value.join(',')}]`;
}

/** JSON of an array (no holes) of strings; undefined for anything else. */
function textList(value: unknown, quote: (text: string) => string): string | undefined {
  if (!Array.isArray(value) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
  const parts: string[] = [];
  for (let i = 0; i < value.length; i++) {
    const entry: unknown = value[i];
    if (typeof entry !== 'string' || !(i in value)) return undefined;
    parts.push(quote(entry));
  }
  return `[${parts.join(',')}]`;
}

/** One move's canonical JSON, or undefined when it is not exactly a planner's move. */
function moveJson(value: unknown, vulnerable: boolean, quote: (text: string) => string): string | undefined {
  if (!isPlainRecord(value) || !hasKeys(value, vulnerable ? VULNERABLE_KEYS : MOVE_KEYS)) return undefined;
  const advisories = textList(value.advisories, quote);
  const siteIds = numberList(value.site_ids);
  const { fix, slug, to } = value;
  if (advisories === undefined || siteIds === undefined) return undefined;
  if (typeof slug !== 'string' || typeof to !== 'string') return undefined;
  if (vulnerable && typeof fix !== 'string') return undefined;
  let text = `{"advisories":${advisories}`;
  if (vulnerable) text += `,"fix":${quote(fix as string)}`;
  for (const field of TEXT_FIELDS) {
    const member = value[field];
    if (typeof member !== 'string') return undefined;
    text += `,"${field}":${quote(member)}`;
  }
  return `${text},"site_ids":${siteIds},"slug":${quote(slug)},"to":${quote(to)}}`;
}

function movesJson(value: unknown, vulnerable: boolean, quote: (text: string) => string): string | undefined {
  if (!Array.isArray(value) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
  const parts: string[] = [];
  for (let i = 0; i < value.length; i++) {
    const json = i in value ? moveJson(value[i], vulnerable, quote) : undefined;
    if (json === undefined) return undefined;
    parts.push(json);
  }
  return `[${parts.join(',')}]`;
}

/**
 * The canonical JSON of a plan's security section holding exactly the planner's members (its
 * `advisories` and `feed` records, small, by the general writer; its moves by hand); undefined
 * for anything else.
 */
export function securitySectionJson(value: unknown): string | undefined {
  if (!isPlainRecord(value) || !hasKeys(value, SECTION_KEYS)) return undefined;
  const quoted = new Map<string, string>();
  const quote = (text: string): string => {
    let json = quoted.get(text);
    if (json === undefined) {
      json = JSON.stringify(text);
      quoted.set(text, json);
    }
    return json;
  };
  const updates = movesJson(value.updates, false, quote);
  const vulnerable = movesJson(value.vulnerable, true, quote);
  const advisories = canonicalMemberJson(value.advisories);
  const feed = canonicalMemberJson(value.feed);
  if ([updates, vulnerable, advisories, feed].includes(undefined)) return undefined;
  return `{"advisories":${advisories},"feed":${feed},"updates":${updates},"vulnerable":${vulnerable}}`;
}
