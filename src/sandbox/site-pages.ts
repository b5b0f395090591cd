import type { HealthFaults } from './health-faults.js';
import type { Reply, SandboxRequest } from './http-util.js';
import type { SandboxStore } from './store.js';

/** The parts of the sandbox context a page answer reads (context.ts imports this file). */
interface PageSources {
  store: Pick<SandboxStore, 'resolve'>;
  healthFaults: Pick<HealthFaults, 'firing'>;
}

/**
 * Child sites' own pages, served by the sandbox over loopback: `GET /__sites/<id>/<path>`.
 * Started with `sitePages: true`, the sandbox gives every site the URL `<sandbox>/__sites/<id>/`,
 * so a client that fetches pages below a site's URL (deeper health checks) reaches these.
 *
 * A page answers 200 with a small HTML document naming the site, unless a health fault fires
 * for the site (health-faults.ts): then it answers the fault's `page_status` (default its
 * `http_code`) with the fault's `page_body` in the document (a PHP fatal error's text, say).
 * Request faults (`route: /__sites/…`) apply as to any route: latency makes a page slow.
 */
export const SITE_PAGES_PREFIX = '/__sites/';

/** What the pages saw: for tests of cache busting and of the client's concurrency bound. */
export interface SitePageStats {
  requests: number;
  /** The most page requests open at once. */
  maxInFlight: number;
  /** The latest requests (at most 100), oldest first: site, path, raw query. */
  recent: { site: number; path: string; query: string }[];
}

export class SitePages {
  private inFlight = 0;
  private stats: SitePageStats = { requests: 0, maxInFlight: 0, recent: [] };

  /** Counts a page request as open until `leave` is called (when its response closes). */
  enter(): () => void {
    this.inFlight += 1;
    this.stats.requests += 1;
    this.stats.maxInFlight = Math.max(this.stats.maxInFlight, this.inFlight);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.inFlight -= 1;
    };
  }

  snapshot(): SitePageStats {
    return { ...this.stats, recent: [...this.stats.recent] };
  }

  reset(): void {
    this.stats = { requests: 0, maxInFlight: this.inFlight, recent: [] };
  }

  answer(ctx: PageSources, req: SandboxRequest): Reply {
    const match = /^\/__sites\/(\d+)(\/.*)?$/.exec(req.path);
    const site = match ? ctx.store.resolve(Number(match[1])) : undefined;
    if (!match || !site || req.method !== 'GET') return page(404, 'Not Found', '');
    const path = match[2] ?? '/';
    this.stats.recent.push({ site: site.id, path, query: req.rawQuery });
    if (this.stats.recent.length > 100) this.stats.recent.shift();
    const fault = ctx.healthFaults.firing(site);
    if (!fault) return page(200, site.name, '<p>Just another WordPress site</p>');
    return page(fault.pageStatus ?? fault.httpCode, site.name, fault.pageBody ?? '');
  }
}

function page(status: number, title: string, body: string): Reply {
  const html = `<!doctype html><html><head><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`;
  return { status, body: null, json: html, headers: { 'Content-Type': 'text/html; charset=UTF-8' } };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
