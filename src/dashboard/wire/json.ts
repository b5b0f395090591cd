import { jsonSyntaxPlace, SvcError } from '../../errors.js';

/**
 * Reading untrusted JSON. JSON.parse itself never sets a prototype (a `__proto__` key becomes an
 * inert own property); `parseJson` also drops literal `__proto__` keys, every accessor reads own
 * properties only, and no parsed object is ever merged with `Object.assign` or `obj[key] = …`
 * into a plain object. So a response can neither pollute prototypes nor make an inherited member
 * (`constructor`, `toString`) look like a field. Every failure names the ability or route
 * (`where`) and the field path.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function parseJson(text: string, where: string): Json {
  try {
    // The reviver costs a lot on large pages, so it runs only when the literal key is present;
    // an escaped spelling slips past this check but stays an inert own property (see above).
    return (text.indexOf('"__proto__"') === -1 ? JSON.parse(text) : JSON.parse(text, dropProtoKeys)) as Json;
  } catch (error) {
    // Only where parsing stopped: V8's own message quotes the start of the body, which may be a
    // credential the server echoed.
    throw new SvcError(
      'BAD_RESPONSE',
      `${where}: the response is not valid JSON (${jsonSyntaxPlace(error, text)})`,
      {
        hint: 'The dashboard or a proxy in front of it sent a truncated or non-JSON body.',
        details: { where },
      },
    );
  }
}

function dropProtoKeys(key: string, value: unknown): unknown {
  return key === '__proto__' ? undefined : value;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function badShape(where: string, field: string, expected: string, got: unknown): SvcError {
  return new SvcError(
    'BAD_RESPONSE',
    `${where}: field "${field}" should be ${expected}, got ${kindOf(got)}`,
    {
      hint: 'The dashboard answered with a shape svc-gitops does not know; check its version and plugins.',
      details: { where, field },
    },
  );
}

function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `a string` : `a ${typeof value}`;
}

/** An own property, or undefined. */
export function own(object: JsonObject, key: string): Json | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** A cursor over one object that names its path in errors. */
export class Reader {
  constructor(
    readonly where: string,
    readonly value: JsonObject,
    readonly path = '',
  ) {}

  static of(value: unknown, where: string, path = ''): Reader {
    if (!isObject(value)) throw badShape(where, path || '(body)', 'an object', value);
    return new Reader(where, value, path);
  }

  field(key: string): string {
    return this.path ? `${this.path}.${key}` : key;
  }

  has(key: string): boolean {
    return own(this.value, key) !== undefined && own(this.value, key) !== null;
  }

  raw(key: string): Json | undefined {
    return own(this.value, key);
  }

  /**
   * A string; a whole number is taken as its digits (PHP may send `2024` for a slug), but any
   * other number is refused: `6.10` sent as a number has already become 6.1.
   */
  string(key: string): string {
    const v = own(this.value, key);
    if (typeof v === 'string') return v;
    if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
    throw badShape(this.where, this.field(key), 'a string', v);
  }

  optionalString(key: string): string | undefined {
    const v = own(this.value, key);
    return v === undefined || v === null ? undefined : this.string(key);
  }

  /** Integers may arrive as numeric strings (PHP). */
  int(key: string): number {
    const v = own(this.value, key);
    const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
    if (typeof n === 'number' && Number.isInteger(n)) return n;
    throw badShape(this.where, this.field(key), 'an integer', v);
  }

  optionalInt(key: string): number | undefined {
    const v = own(this.value, key);
    return v === undefined || v === null ? undefined : this.int(key);
  }

  /** A list; an object with numeric keys (a PHP list with gaps) counts as a list. */
  array(key: string): Json[] {
    const v = own(this.value, key);
    const list = asList(v);
    if (list) return list;
    throw badShape(this.where, this.field(key), 'a list', v);
  }

  optionalArray(key: string): Json[] {
    const v = own(this.value, key);
    return v === undefined || v === null ? [] : this.array(key);
  }

  object(key: string): Reader {
    return Reader.of(own(this.value, key), this.where, this.field(key));
  }

  /** `success` as true/false or 1/0 (or "1"/"0"). */
  success(key = 'success'): boolean {
    const v = own(this.value, key);
    if (v === true || v === 1 || v === '1' || v === 'true') return true;
    if (v === false || v === 0 || v === '0' || v === 'false') return false;
    throw badShape(this.where, this.field(key), 'true/false or 1/0', v);
  }
}

/** Lists, PHP lists-with-gaps (objects with numeric keys) and the empty map `[]`. */
export function asList(value: unknown): Json[] | undefined {
  if (Array.isArray(value)) return value as Json[];
  if (isObject(value)) {
    const keys = Object.keys(value);
    if (keys.every((k) => /^\d+$/.test(k))) {
      return keys.sort((a, b) => Number(a) - Number(b)).map((k) => value[k] as Json);
    }
  }
  return undefined;
}

/** Maps; an empty list stands for an empty map (PHP serialises `{}` as `[]`). */
export function asMap(value: unknown): Array<[string, Json]> | undefined {
  if (Array.isArray(value) && value.length === 0) return [];
  if (isObject(value)) return Object.entries(value);
  return undefined;
}

/** Slugs may arrive URL-encoded (`akismet%2Fakismet.php`). */
export function decodeSlug(slug: string): string {
  if (!slug.includes('%')) return slug;
  try {
    return decodeURIComponent(slug);
  } catch {
    return slug;
  }
}
