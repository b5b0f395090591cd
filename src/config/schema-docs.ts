/** Reading the schema's own documentation (titles, descriptions) to explain a failed check. */

export type SchemaNode = {
  $ref?: string;
  title?: string;
  description?: string;
  properties?: Record<string, SchemaNode>;
  oneOf?: Array<{ required?: string[] }>;
  anyOf?: Array<{ required?: string[] }>;
  enum?: unknown[];
};

/** A property's description, following a `$ref` to a definition when it has none of its own. */
export function describedProperty(
  root: Record<string, unknown>,
  node: SchemaNode | undefined,
): string | undefined {
  if (node?.description) return node.description;
  const name = node?.$ref?.replace('#/$defs/', '');
  const defs = root.$defs as Record<string, SchemaNode> | undefined;
  return name ? defs?.[name]?.description : undefined;
}

/**
 * The schema nodes on the error's schema path, outermost first. ajv writes the path of an error
 * inside a `$ref` that it did not inline from that definition (`#/else/type`), not from the root;
 * such a path is walked from the definition that holds the failed keyword's schema, so its own
 * documentation is found instead of the root's.
 */
export function schemaNodes(
  root: Record<string, unknown>,
  schemaPath: string,
  parentSchema?: unknown,
): unknown[] {
  const segments = schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean);
  const walk = (base: unknown): unknown[] => {
    const nodes: unknown[] = [base];
    let node = base;
    for (const segment of segments) {
      node =
        typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[segment] : undefined;
      nodes.push(node);
    }
    return nodes;
  };
  const fromRoot = walk(root);
  if (parentSchema === undefined || fromRoot.some((n) => sameSchemaNode(n, parentSchema))) return fromRoot;
  const defs = Object.values((root.$defs ?? {}) as Record<string, unknown>);
  for (const def of defs) {
    const nodes = walk(def);
    if (nodes.some((n) => sameSchemaNode(n, parentSchema))) return [root, ...nodes];
  }
  return fromRoot;
}

/**
 * Whether two schema nodes are the same node of the schema file. A generated validator's errors
 * carry its own copies of the nodes (ajv's standalone code writes each as a literal), equal in
 * content and key order to the file's: compared by content, on the error path only.
 */
export function sameSchemaNode(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return false;
  return contentOf(a) === contentOf(b);
}

/**
 * Schema nodes are immutable (the file's are parsed once, the validator's are module constants),
 * so each node's text is computed once: an input with 100,000 schema errors compares the same few
 * nodes every time, and serialising the 23 KB root per error made that quadratic in practice.
 */
const contents = new WeakMap<object, string>();

function contentOf(node: object): string {
  let text = contents.get(node);
  if (text === undefined) {
    text = JSON.stringify(node);
    contents.set(node, text);
  }
  return text;
}

/**
 * The title and description of the closest schema node on the error's schema path that has
 * them (a pattern inside `else` is documented by the definition around it).
 */
export function nearestDocs(
  root: Record<string, unknown>,
  schemaPath: string,
  parentSchema?: unknown,
): { title?: string; description?: string } {
  const docs: { title?: string; description?: string } = {};
  for (const candidate of schemaNodes(root, schemaPath, parentSchema).reverse()) {
    if (typeof candidate !== 'object' || candidate === null) continue;
    const c = candidate as SchemaNode;
    if (docs.title === undefined && typeof c.title === 'string') docs.title = c.title;
    if (docs.description === undefined && typeof c.description === 'string') docs.description = c.description;
    if (docs.title !== undefined && docs.description !== undefined) break;
  }
  return docs;
}

/** Specific advice for values that are close to valid: URLs for domains, unencoded or partial slugs. */
export function patternHint(value: unknown, title: string | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (title === 'plugin slug' && /^[A-Za-z0-9._-]+$/.test(value) && !value.endsWith('.php')) {
    return `plugin slugs are <folder>/<file>.php: did you mean \`${value}/${value}.php\`?`;
  }
  const url = /^[a-z]+:\/\/([^/]+)/i.exec(value);
  if (url) return `write the bare domain: ${url[1]!.toLowerCase()}`;
  if (value !== value.toLowerCase() && /^[a-z0-9*?.-]+$/i.test(value)) {
    return `domains are written in lower case: ${value.toLowerCase()}`;
  }
  if (value.includes('%')) return `write the slug decoded: ${safeDecode(value)}`;
  return undefined;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
