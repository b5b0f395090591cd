import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * The identity of a dashboard for the apply lock and the journal: one string for every spelling
 * of one address. Scheme; host lower-cased without a trailing dot, every loopback spelling
 * (`localhost`, `*.localhost`, 127.0.0.0/8, `::1`, `0.0.0.0`, a name that resolves only to
 * loopback addresses) as `loopback`; the port, the scheme's default when none is given; the path
 * without repeated or trailing slashes. Credentials and query are not part of it.
 *
 * A remote host keeps its name: two names of one remote dashboard (a CNAME and its target) stay
 * two keys, since resolving them would split one name into several keys whenever its address
 * set changes between runs (DNS round robin), which is the worse failure. The dashboard's
 * interface gives no identity of its own to add.
 */
export function normaliseDashboardUrl(url: string): string {
  return keyOf(new URL(url), false);
}

/** `normaliseDashboardUrl`, also counting a name that resolves only to loopback as loopback. */
export async function dashboardKey(
  url: string,
  resolveHost: (host: string) => Promise<string[]> = resolveAll,
): Promise<string> {
  const parsed = new URL(url);
  const host = bareHost(parsed.hostname);
  if (isLoopbackName(host) || isIP(host) !== 0) return keyOf(parsed, false);
  let addresses: string[] = [];
  try {
    addresses = await resolveHost(host);
  } catch {
    // A name that does not resolve keeps its spelling; the request itself reports it.
  }
  return keyOf(parsed, addresses.length > 0 && addresses.every(isLoopbackAddress));
}

function keyOf(url: URL, resolvesToLoopback: boolean): string {
  const host = bareHost(url.hostname);
  const shown = resolvesToLoopback || isLoopbackName(host) || isLoopbackAddress(host) ? 'loopback' : host;
  const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');
  const path = url.pathname.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  return `${url.protocol}//${shown}:${port}${path}`;
}

/** Lower case, without IPv6 brackets or a trailing dot (`Example.COM.` is `example.com`). */
function bareHost(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

function isLoopbackName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}

/** 127.0.0.0/8, ::1, the unspecified addresses (a connection to them reaches this host) and their IPv4-mapped forms. */
export function isLoopbackAddress(address: string): boolean {
  const host = address.toLowerCase();
  if (isIP(host) === 4) return host.startsWith('127.') || host === '0.0.0.0';
  if (isIP(host) !== 6) return false;
  if (host === '::1' || host === '::') return true;
  const mapped = /^::ffff:(.+)$/.exec(host)?.[1];
  if (mapped === undefined) return false;
  if (isIP(mapped) === 4) return isLoopbackAddress(mapped);
  // `::ffff:7f00:1` is 127.0.0.1 written in hex (how the URL parser spells it).
  const high = Number.parseInt(mapped.split(':')[0] ?? '', 16);
  return high >> 8 === 0x7f || mapped === '0:0';
}

async function resolveAll(host: string): Promise<string[]> {
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((entry) => entry.address);
}
