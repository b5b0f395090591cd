/**
 * One string object per distinct text. A fleet's listings repeat each slug, name and version on
 * thousands of sites, and JSON.parse gives every occurrence a copy of its own: at 100,000 sites
 * that is some 2.4 million copies of a few thousand texts. A read keeps one pool for its pages, so
 * the live state holds each text once; the pool dies with the read.
 */
export class StringPool {
  private readonly texts = new Map<string, string>();

  of(text: string): string {
    const known = this.texts.get(text);
    if (known !== undefined) return known;
    this.texts.set(text, text);
    return text;
  }
}
