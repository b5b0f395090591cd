import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalSha256 } from '../../src/plan/index.js';

/**
 * The obvious definition, written independently: keys sorted by code unit (so "" < "0" < "10"
 * < "2", unlike JavaScript's own integer-first key order), no whitespace.
 */
function reference(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${reference(record[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

describe('canonical JSON', () => {
  it('sorts keys by code unit, integer-like keys included', () => {
    expect(canonicalJson({ '2': 0, '10': 0, '': 0, a: 0 })).toBe('{"":0,"10":0,"2":0,"a":0}');
  });

  it('sorts keys at every depth and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 0, y: 'é\n' }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"y":"é\\n","z":0}]},"b":1}',
    );
  });

  it('matches sort-then-stringify and hashes what it writes', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(reference(value));
        expect(canonicalSha256(value)).toBe(
          createHash('sha256').update(reference(value), 'utf8').digest('hex'),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('keeps a "__proto__" member at any depth', () => {
    const value = JSON.parse('{"a":[{"__proto__":{"op":"x"},"z":0}],"__proto__":1}');
    expect(canonicalJson(value)).toBe(reference(value));
    expect(canonicalJson(value)).toContain('"__proto__":{"op":"x"}');
  });

  it('matches the reference for records whose keys shadow or name inherited members', () => {
    const key = fc.oneof(
      fc.string({ maxLength: 4 }),
      fc.constantFrom('__proto__', 'constructor', 'toString', 'valueOf', '0', '10', '2'),
    );
    const record = fc.dictionary(key, fc.oneof(fc.integer(), fc.string(), fc.constant(null)), {
      maxKeys: 5,
    });
    // Plan-shaped: a record of arrays of small records, so the batched top levels are exercised.
    const document = fc.dictionary(key, fc.array(record, { maxLength: 30 }), { maxKeys: 4 });
    fc.assert(
      fc.property(document, (value) => {
        const parsed = JSON.parse(JSON.stringify(value)); // own "__proto__" members, as read from a file
        expect(canonicalJson(parsed)).toBe(reference(parsed));
      }),
      { numRuns: 300 },
    );
  });

  it('matches the reference for records already built in key order, integer-like keys included', () => {
    const sortedRecord = (record: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const key = fc.oneof(fc.string({ maxLength: 3 }), fc.constantFrom('0', '1', '10', '2', 'a'));
    const record = fc.dictionary(key, fc.oneof(fc.integer(), fc.string()), { maxKeys: 5 }).map(sortedRecord);
    fc.assert(
      fc.property(fc.dictionary(key, fc.array(record, { maxLength: 20 }), { maxKeys: 3 }), (value) => {
        expect(canonicalJson(value)).toBe(reference(value));
      }),
      { numRuns: 300 },
    );
  });

  it('writes toJSON holders (dates) as JSON.stringify does, at any depth', () => {
    const at = new Date('2026-01-02T03:04:05Z');
    const value = { rows: [{ b: at, a: 1 }, { when: { toJSON: () => ({ z: 1, y: 2 }) } }], at };
    expect(canonicalJson(value)).toBe(
      '{"at":"2026-01-02T03:04:05.000Z","rows":[{"a":1,"b":"2026-01-02T03:04:05.000Z"},{"when":{"y":2,"z":1}}]}',
    );
  });

  it('leaves out a member whose toJSON gives nothing, at any depth, as JSON.stringify does', () => {
    const nothing = { toJSON: () => undefined };
    const value = { a: nothing, rows: [{ b: nothing, c: 1 }], d: [nothing] };
    expect(canonicalJson(value)).toBe('{"d":[null],"rows":[{"c":1}]}');
    expect(canonicalJson(value)).toBe(reference(JSON.parse(JSON.stringify(value))));
  });

  it('writes objects that are not plain data as JSON.stringify does, hidden members left out', () => {
    const rows = [
      { size: 0, b: 1, a: 2 },
      { m: new Map([[1, 2]]), e: new Error('boom') },
    ];
    expect(canonicalJson({ rows })).toBe(reference(JSON.parse(JSON.stringify({ rows }))));
  });

  it('writes records with very many distinct keys correctly', () => {
    const rows = Array.from({ length: 40 }, (_, i) =>
      Object.fromEntries(Array.from({ length: 20 }, (_, j) => [`k${(i * 7 + j * 13) % 600}`, j])),
    );
    expect(canonicalJson({ rows })).toBe(reference({ rows }));
  });

  it('does not write an inherited member under a key another record owns', () => {
    const rows: unknown[] = [{ constructor: 1 }, {}, { toString: 'x' }, { a: [{ valueOf: 2 }, {}] }];
    expect(canonicalJson({ rows })).toBe(
      '{"rows":[{"constructor":1},{},{"toString":"x"},{"a":[{"valueOf":2},{}]}]}',
    );
  });

  it('hashes documents larger than its buffer', () => {
    const big = { items: Array.from({ length: 5_000 }, (_, i) => ({ i, name: `item-${i}-→` })) };
    expect(canonicalSha256(big)).toBe(createHash('sha256').update(reference(big), 'utf8').digest('hex'));
  });
});
