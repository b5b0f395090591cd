import shipped from './shipped-abilities.json' with { type: 'json' };
import type { Schema } from './validate.js';

/**
 * The shipped release 6.1 abilities catalogue: names, categories, annotations, input and output
 * schemas of all 64 abilities, as the dashboard vendor publishes them (texts removed), in
 * `shipped-abilities.json` (a copy of `shared/catalogue/shipped-abilities.json`, under the
 * sandbox's own namespace `svc`). Data only: the profiles derive their catalogues from it, the
 * abilities the sandbox does not emulate are served from it as definitions only.
 */
export interface ShippedAbility {
  name: string;
  /** Set where it is not the dashboard's own (WordPress core's `core/…`). */
  namespace?: string;
  /** Without the dashboard's prefix (`sites` = `svc-sites`); core's as shipped. */
  category: string;
  annotations: { readonly: boolean; destructive: boolean; idempotent: boolean };
  has_instructions: boolean;
  /** The shipped document writes "no schema" as `[]`; read here as the empty schema. */
  input_schema: Schema;
  output_schema: Schema;
}

interface ShippedEntry {
  name: string;
  category: string;
  annotations: ShippedAbility['annotations'];
  has_instructions: boolean;
  input_schema: unknown;
  output_schema: unknown;
}

const OWN_NAMESPACE = 'svc';

/**
 * Where MainWP 6.1.2 serves more than the shipped document says: list-sites-v1's `status` also
 * takes `available_update` (the real dashboard's catalogue lists it).
 */
function patched(entry: ShippedAbility): ShippedAbility {
  if (entry.name !== 'list-sites-v1') return entry;
  const status = entry.input_schema.properties?.status as Schema;
  return {
    ...entry,
    input_schema: {
      ...entry.input_schema,
      properties: {
        ...entry.input_schema.properties,
        status: { ...status, enum: [...((status.enum as string[]) ?? []), 'available_update'] },
      },
    },
  };
}

/**
 * The document writes PHP's empty array as `[]` everywhere; as the default of an object schema
 * (list-clients-v1, count-clients-v1) the real dashboard serves it as `{}`.
 */
function objectDefault(schema: Schema): Schema {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const empty = Array.isArray(schema.default) && schema.default.length === 0;
  return empty && types.includes('object') ? { ...schema, default: {} } : schema;
}

function fromDocument(entry: ShippedEntry): ShippedAbility {
  const [namespace = '', name = ''] = entry.name.split('/');
  const own = namespace === OWN_NAMESPACE;
  const schema = (value: unknown): Schema => (Array.isArray(value) ? {} : objectDefault(value as Schema));
  return patched({
    name,
    ...(own ? {} : { namespace }),
    category: own ? entry.category.slice(OWN_NAMESPACE.length + 1) : entry.category,
    annotations: entry.annotations,
    has_instructions: entry.has_instructions,
    input_schema: schema(entry.input_schema),
    output_schema: schema(entry.output_schema),
  });
}

/** Every shipped ability, in the document's order. */
export const SHIPPED_ABILITIES: readonly ShippedAbility[] = (shipped as ShippedEntry[]).map(fromDocument);

/** The dashboard's own abilities by name (without namespace). */
export const SHIPPED_CATALOGUE: ReadonlyMap<string, ShippedAbility> = new Map(
  SHIPPED_ABILITIES.filter((a) => a.namespace === undefined).map((a) => [a.name, a]),
);
