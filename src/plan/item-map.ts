/**
 * A map keyed by item: kind, then slug. Nested maps rather than a joined key string: a fleet
 * looks items up hundreds of thousands of times, and a built key is a new string to allocate
 * and hash each time, where the kind and slug strings carry their hashes already.
 */
export class ItemMap<T> {
  private readonly byKind = new Map<string, Map<string, T>>();

  get(kind: string, slug: string): T | undefined {
    return this.byKind.get(kind)?.get(slug);
  }

  has(kind: string, slug: string): boolean {
    return this.byKind.get(kind)?.has(slug) ?? false;
  }

  set(kind: string, slug: string, value: T): void {
    let bySlug = this.byKind.get(kind);
    if (!bySlug) {
      bySlug = new Map();
      this.byKind.set(kind, bySlug);
    }
    bySlug.set(slug, value);
  }
}
