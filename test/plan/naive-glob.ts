/** A recursive glob matcher for test oracles, independent of src/plan/glob.ts. */
export function globMatches(pattern: string, value: string): boolean {
  if (pattern === '') return value === '';
  const [head, rest] = [pattern[0], pattern.slice(1)];
  if (head === '*') return [...Array(value.length + 1).keys()].some((i) => globMatches(rest, value.slice(i)));
  if (value === '') return false;
  return (head === '?' || head === value[0]) && globMatches(rest, value.slice(1));
}
