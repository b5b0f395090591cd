/**
 * How many sites one filtered `list-updates-v1` request should name. A MainWP dashboard builds
 * the update list of every site a request names before it slices a page out of it, so a request
 * costs the server its sites, every page again. The best chunk is the one that reads the most
 * sites per request while its updates still fit one page: past a page, each further page costs
 * the whole chunk's sites again. The fleet's updates per site are measured from the chunks read
 * so far (mean and spread), and each candidate size is judged by its expected pages.
 */
export class ChunkSizer {
  private sites = 0;
  private sum = 0;
  private sumSquares = 0;
  private msPerSite = 0;

  constructor(
    /** Items one page holds (the declared maximum `per_page`). */
    private readonly perPage: number,
    /** Sites of a chunk before anything is measured. */
    private readonly initial: number,
    /** Longest a request may take (the request timeout); 0 = no bound. */
    private readonly timeoutMs = 0,
  ) {}

  get measured(): boolean {
    return this.sites > 0;
  }

  /** Records the update counts of the sites of one chunk read (0 for a site without updates). */
  observe(counts: Iterable<number>): void {
    for (const count of counts) {
      this.sites++;
      this.sum += count;
      this.sumSquares += count * count;
    }
  }

  /**
   * Records how long one request for `sites` sites took (queueing included, so an estimate on
   * the high side). The cost per site is smoothed, rising at once and falling slowly.
   */
  observeTime(sites: number, ms: number): void {
    const perSite = ms / Math.max(1, sites);
    this.msPerSite = perSite > this.msPerSite ? perSite : this.msPerSite * 0.8 + perSite * 0.2;
  }

  /**
   * Sites the next chunk should name (the request line may allow fewer): the most sites per
   * request, and no more than a quarter of the request timeout's worth of measured site cost,
   * so a slow dashboard gets smaller chunks rather than timeouts.
   */
  size(): number {
    return Math.max(1, Math.min(this.bestForPages(), this.timeCap()));
  }

  /** The size the page count alone would choose (what the chunks take on an unloaded dashboard). */
  sizeForPages(): number {
    return Math.max(1, this.bestForPages());
  }

  private timeCap(): number {
    if (this.timeoutMs <= 0 || this.msPerSite <= 0) return MAX_CHUNK_SITES;
    return Math.floor(this.timeoutMs / 4 / this.msPerSite);
  }

  private bestForPages(): number {
    if (this.sites === 0) return this.initial;
    const mean = this.sum / this.sites;
    if (mean === 0) return MAX_CHUNK_SITES;
    // A few sites measured say little about the spread: assume at least Poisson's (variance = mean).
    const variance = Math.max(this.sumSquares / this.sites - mean * mean, this.sites < 30 ? mean : 0);
    let best = 1;
    let bestRate = 0;
    // Beyond a page's worth of the mean, most chunks take two pages: never the best.
    const limit = Math.min(MAX_CHUNK_SITES, Math.max(1, Math.floor(this.perPage / mean)));
    for (let n = 1; n <= limit; n++) {
      const rate = n / expectedPages(n * mean, n * variance, this.perPage);
      if (rate > bestRate) {
        bestRate = rate;
        best = n;
      }
    }
    return best;
  }
}

/** More sites than any request line holds (about 225 IDs fit 8 KiB): the line decides. */
export const MAX_CHUNK_SITES = 1000;

/** Expected pages of a chunk whose updates are about normal with this mean and variance. */
export function expectedPages(mean: number, variance: number, perPage: number): number {
  if (variance <= 0) return Math.max(1, Math.ceil(mean / perPage));
  const sd = Math.sqrt(variance);
  let pages = 1;
  // Page k+1 is needed when the chunk holds more than k pages of items.
  for (let k = 1; k < 10_000; k++) {
    const tail = upperTail((perPage * k + 0.5 - mean) / sd);
    if (tail < 1e-9) break;
    pages += tail;
  }
  return pages;
}

/** P(Z > z) of a standard normal (Abramowitz–Stegun 7.1.26, error below 1.5e-7). */
function upperTail(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly =
    t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erfc = poly * Math.exp(-x * x);
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}
