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

export interface LoadFeedOptions {
  /** Absolute; feeds are cached under `<stateDir>/feeds/`. */
  stateDir: string;
  /** Needed for a Wordfence feed (SVC_FEED_API_KEY). */
  apiKey?: string | undefined;
  now: Date;
  signal?: AbortSignal | undefined;
  onWarning?: ((message: string) => void) | undefined;
  dispatcher?: Dispatcher | undefined;
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

async function loadFile(
  config: SecurityConfig,
  path: string,
  format: 'wordfence' | 'svc',
  options: LoadFeedOptions,
) {
  let mtime: Date;
  try {
    mtime = fs.statSync(path).mtime;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new SvcError('IO_ERROR', `cannot read the feed ${path} (${String(code ?? error)})`, {
      hint: `security.feed.file is read from the directory of the YAML file that names it`,
    });
  }
  const read = await readFeedFile(path, format, path, options.signal);
  warnIfOld(config, mtime, options.now, path, options.onWarning);
  return loaded(read, path, mtime);
}

export async function loadFeed(config: SecurityConfig, options: LoadFeedOptions): Promise<LoadedFeed> {
  const { source } = config;
  if (source.type === 'file') return loadFile(config, source.path, source.format, options);
  const shown = publicUrl(source.url);
  if (!options.apiKey)
    throw new SvcError('SETTINGS_INVALID', `the Wordfence feed ${shown} needs an API key`, {
      hint: 'set SVC_FEED_API_KEY (or feedApiKey in the settings file) to a Wordfence Intelligence API key',
    });
  const dir = join(options.stateDir, 'feeds');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const name = createHash('sha256').update(source.url).digest('hex').slice(0, 16);
  const cache = join(dir, `${name}.json`);
  const metaPath = join(dir, `${name}.meta.json`);
  const meta = fs.existsSync(cache) ? readMeta(metaPath) : undefined;
  const now = options.now;
  if (meta && now.getTime() - Date.parse(meta.fetched_at) < config.refreshAfter.ms) {
    const read = await readFeedFile(cache, 'wordfence', `${shown} (cached in ${cache})`, options.signal);
    warnIfOld(config, new Date(meta.fetched_at), now, shown, options.onWarning);
    return loaded(read, shown, new Date(meta.fetched_at));
  }
  const temporary = `${cache}.${process.pid}.tmp`;
  try {
    try {
      await downloadFeed({
        url: source.url,
        apiKey: options.apiKey,
        to: temporary,
        signal: options.signal,
        dispatcher: options.dispatcher,
      });
    } catch (error) {
      if (!meta || !isSvcError(error) || error.code === 'INTERRUPTED' || error.code === 'FEED_INVALID')
        throw error;
      options.onWarning?.(`${error.message}; using the feed cached ${meta.fetched_at}`);
      const read = await readFeedFile(cache, 'wordfence', `${shown} (cached in ${cache})`, options.signal);
      warnIfOld(config, new Date(meta.fetched_at), now, shown, options.onWarning);
      return loaded(read, shown, new Date(meta.fetched_at));
    }
    const read = await readFeedFile(temporary, 'wordfence', shown, options.signal);
    fs.renameSync(temporary, cache);
    fs.writeFileSync(metaPath, `${JSON.stringify({ fetched_at: now.toISOString(), source: shown })}\n`, {
      mode: 0o600,
    });
    return loaded(read, shown, now);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}
