/**
 * The advisories of the feed a desired state names, for one plan. A downloaded feed is cached in
 * the state directory (`feeds/<hash of the URL>.json`, with `.meta.json` saying when it was
 * fetched): a cache younger than `refresh_after` is used as it is; otherwise the feed is
 * downloaded to a temporary file, read completely, and only then replaces the cache. A download
 * that fails leaves the cache in use, with a warning; a feed older than `max_age` warns too.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import { isSvcError, SvcError } from '../errors.js';
import { publicUrl } from '../public-url.js';
import type { Advisory, PlanSecurity, SecurityConfig } from '../types.js';
import { downloadFeed } from './download.js';
import { type FeedRead, readFeedFile } from './read.js';
import type { FeedFilter } from './wordfence.js';

export interface LoadFeedOptions {
  /** Absolute; feeds are cached under `<stateDir>/feeds/`. */
  stateDir: string;
  /** Needed for a Wordfence feed (SVC_FEED_API_KEY). */
  apiKey?: string | undefined;
  now: Date;
  signal?: AbortSignal | undefined;
  onWarning?: ((message: string) => void) | undefined;
  dispatcher?: Dispatcher | undefined;
  /** Keep only these items' advisories (the fleet's): the feed is still read and checked whole. */
  keep?: FeedFilter | undefined;
}

export interface LoadedFeed {
  advisories: Advisory[];
  feed: PlanSecurity['feed'];
  records: number;
}

interface CacheMeta {
  fetched_at: string;
  source: string;
}

function ageText(ms: number): string {
  const hours = ms / 3_600_000;
  return hours < 48 ? `${Math.round(hours)}h` : `${Math.round(hours / 24)}d`;
}

function warnIfOld(
  config: SecurityConfig,
  fetchedAt: Date,
  now: Date,
  source: string,
  warn?: (m: string) => void,
) {
  const age = now.getTime() - fetchedAt.getTime();
  if (age > config.maxAge.ms)
    warn?.(
      `the vulnerability feed ${source} is ${ageText(age)} old, older than security.max_age (${config.maxAge.text})`,
    );
}

function readMeta(path: string): CacheMeta | undefined {
  try {
    const meta = JSON.parse(fs.readFileSync(path, 'utf8')) as CacheMeta;
    return typeof meta.fetched_at === 'string' && !Number.isNaN(Date.parse(meta.fetched_at))
      ? meta
      : undefined;
  } catch {
    return undefined;
  }
}

function loaded(read: FeedRead, source: string, fetchedAt: Date): LoadedFeed {
  return {
    advisories: read.advisories,
    records: read.records,
    feed: { source, fetched_at: fetchedAt.toISOString() },
  };
}

function feedFileTime(path: string): Date {
  try {
    return fs.statSync(path).mtime;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new SvcError('IO_ERROR', `cannot read the feed ${path} (${String(code ?? error)})`, {
      hint: `security.feed.file is read from the directory of the YAML file that names it`,
    });
  }
}

function requireApiKey(apiKey: string | undefined, shown: string): string {
  if (!apiKey)
    throw new SvcError('SETTINGS_INVALID', `the Wordfence feed ${shown} needs an API key`, {
      hint: 'set SVC_FEED_API_KEY (or feedApiKey in the settings file) to a Wordfence Intelligence API key',
    });
  return apiKey;
}

/**
 * The mistakes found without reading the feed (a missing file, a missing API key), so a caller
 * that reads the feed late (after the dashboard, to keep only the fleet's items) refuses them
 * before any dashboard call.
 */
export function checkFeedSource(config: SecurityConfig, apiKey: string | undefined): void {
  const { source } = config;
  if (source.type === 'file') feedFileTime(source.path);
  else requireApiKey(apiKey, publicUrl(source.url));
}

async function loadFile(
  config: SecurityConfig,
  path: string,
  format: 'wordfence' | 'svc',
  options: LoadFeedOptions,
) {
  const mtime = feedFileTime(path);
  const read = await readFeedFile(path, format, { signal: options.signal, keep: options.keep });
  warnIfOld(config, mtime, options.now, path, options.onWarning);
  return loaded(read, path, mtime);
}

export async function loadFeed(config: SecurityConfig, options: LoadFeedOptions): Promise<LoadedFeed> {
  const { source } = config;
  if (source.type === 'file') return loadFile(config, source.path, source.format, options);
  const shown = publicUrl(source.url);
  const apiKey = requireApiKey(options.apiKey, shown);
  const dir = join(options.stateDir, 'feeds');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const name = createHash('sha256').update(source.url).digest('hex').slice(0, 16);
  const cache = join(dir, `${name}.json`);
  const metaPath = join(dir, `${name}.meta.json`);
  const meta = fs.existsSync(cache) ? readMeta(metaPath) : undefined;
  const now = options.now;
  const { signal, keep } = options;
  const readCache = () =>
    readFeedFile(cache, 'wordfence', { label: `${shown} (cached in ${cache})`, signal, keep });
  if (meta && now.getTime() - Date.parse(meta.fetched_at) < config.refreshAfter.ms) {
    const read = await readCache();
    warnIfOld(config, new Date(meta.fetched_at), now, shown, options.onWarning);
    return loaded(read, shown, new Date(meta.fetched_at));
  }
  const temporary = `${cache}.${process.pid}.tmp`;
  try {
    try {
      await downloadFeed({
        url: source.url,
        apiKey,
        to: temporary,
        signal: options.signal,
        dispatcher: options.dispatcher,
      });
    } catch (error) {
      if (!meta || !isSvcError(error) || error.code === 'INTERRUPTED' || error.code === 'FEED_INVALID')
        throw error;
      options.onWarning?.(`${error.message}; using the feed cached ${meta.fetched_at}`);
      const read = await readCache();
      warnIfOld(config, new Date(meta.fetched_at), now, shown, options.onWarning);
      return loaded(read, shown, new Date(meta.fetched_at));
    }
    const read = await readFeedFile(temporary, 'wordfence', { label: shown, signal, keep });
    fs.renameSync(temporary, cache);
    fs.writeFileSync(metaPath, `${JSON.stringify({ fetched_at: now.toISOString(), source: shown })}\n`, {
      mode: 0o600,
    });
    return loaded(read, shown, now);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}
