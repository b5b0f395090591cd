import { SvcError } from '../../errors.js';

/**
 * Ability input in PHP bracket form for GET/DELETE:
 * `input[site_ids_or_domains][]=1&input[types][]=plugins&input[page]=2`. Booleans travel as 1/0
 * (PHP code that tests truthiness reads "false" as true). An empty array cannot be written in a
 * query and means something different from an absent key for some abilities, so callers must
 * leave such keys out; passing one is a bug in svc-gitops.
 */
export function bracketQuery(input: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    encodeValue(`input[${key}]`, value, parts, 0);
  }
  return parts.join('&');
}

function encodeValue(name: string, value: unknown, parts: string[], depth: number): void {
  if (Array.isArray(value)) {
    if (value.length === 0)
      throw new SvcError('INTERNAL', `${name} is an empty array; it cannot travel in a query`);
    for (const item of value) encodeValue(`${name}[]`, item, parts, depth + 1);
    return;
  }
  if (typeof value === 'object' && value !== null) {
    if (depth > 0) throw new SvcError('INTERNAL', `${name} nests objects deeper than a query can express`);
    for (const [key, inner] of Object.entries(value)) encodeValue(`${name}[${key}]`, inner, parts, depth + 1);
    return;
  }
  const text = typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
  parts.push(
    `${encodeURIComponent(name).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encodeURIComponent(text)}`,
  );
}
