/**
 * Request and update counters for tests and benchmarks. `updateRuns` counts, per
 * (site, kind, slug), how many times an update really ran: apply tests prove with it that no
 * update ran twice.
 */
export class SandboxStats {
  private requests = new Map<string, number>();
  private abilities = new Map<string, number>();
  private bytesByRoute = new Map<string, number>();
  private updateRuns = new Map<string, number>();
  private handlerMs = new Map<string, number>();
  private siteWork = new Map<string, number>();
  private responseBytes = 0;
  private requestCount = 0;

  countRequest(route: string): void {
    this.requestCount += 1;
    bump(this.requests, route, 1);
  }

  countAbility(name: string): void {
    bump(this.abilities, name, 1);
  }

  addBytes(route: string, bytes: number): void {
    this.responseBytes += bytes;
    bump(this.bytesByRoute, route, bytes);
  }

  /** Time the sandbox itself spent on a request (parse, dispatch, serialise, write). */
  addTime(route: string, ms: number): void {
    bump(this.handlerMs, route, ms);
  }

  /** Sites processed to answer one listing request (SiteCost), by ability. */
  addSiteWork(ability: string, sites: number): void {
    bump(this.siteWork, ability, sites);
  }

  /** Translations share slugs across languages, so their key includes the language. */
  recordUpdate(siteId: number, kind: string, slug: string, language?: string): void {
    bump(this.updateRuns, JSON.stringify([siteId, kind, slug, language ?? null]), 1);
  }

  snapshot(): Record<string, unknown> {
    const updates = [...this.updateRuns.entries()].map(([key, count]) => {
      const [site_id, kind, slug, language] = JSON.parse(key) as [number, string, string, string | null];
      return language === null ? { site_id, kind, slug, count } : { site_id, kind, slug, language, count };
    });
    return {
      requests_total: this.requestCount,
      response_bytes: this.responseBytes,
      requests: Object.fromEntries(this.requests),
      abilities: Object.fromEntries(this.abilities),
      response_bytes_by_route: Object.fromEntries(this.bytesByRoute),
      handler_ms: round([...this.handlerMs.values()].reduce((sum, ms) => sum + ms, 0)),
      handler_ms_by_route: Object.fromEntries([...this.handlerMs].map(([route, ms]) => [route, round(ms)])),
      site_work_total: [...this.siteWork.values()].reduce((sum, n) => sum + n, 0),
      site_work: Object.fromEntries(this.siteWork),
      updates_run_total: updates.reduce((sum, u) => sum + u.count, 0),
      updates_run: updates,
    };
  }

  reset(): void {
    this.requests.clear();
    this.abilities.clear();
    this.bytesByRoute.clear();
    this.handlerMs.clear();
    this.siteWork.clear();
    this.updateRuns.clear();
    this.responseBytes = 0;
    this.requestCount = 0;
  }
}

function bump(map: Map<string, number>, key: string, by: number): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
