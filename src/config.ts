// The only place that reads process.env. Everything else receives a typed, frozen Config.
import { isIP } from 'node:net';
import path from 'node:path';
import { DEFAULT_DECODE_BUDGET_BYTES } from './core/capture/decode-budget.js';
import { DEFAULT_REPLAY_LIMITS, type ReplayLimits } from './core/replay/budget.js';
import type { RecordingsObjectStorage } from './core/replay/s3-block-store.js';
import { DEFAULT_CAPTURE_TRUSTED_PROXIES } from './core/geoip/client-ip.js';
import { DEFAULT_RESULT_LIMITS, type ResultLimits } from './core/queries/result-size.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  readonly dataDir: string;
  readonly port: number;
  readonly host: string;
  /** postgres:// URL; when absent the metadata store is SQLite inside dataDir. */
  readonly databaseUrl: string | null;
  /** Base of absolute URLs (pagination links); null means "from the request". */
  readonly siteUrl: string | null;
  readonly logLevel: LogLevel;
  readonly events: EventStoreConfig;
  /** Time limit of one analytical query, in seconds. */
  readonly queryTimeoutSeconds: number;
  /** HogQL parser worker threads (one project may hold all but one). */
  readonly hogqlParsers: number;
  /** The shared result cache's budget, the largest cached result and the largest answer, in bytes. */
  readonly queryResults: Readonly<ResultLimits>;
  /** Memory all capture requests being decoded at once may hold, in bytes. */
  readonly captureMemoryBytes: number;
  /** The capture log's directory (one process owns it); default `<dataDir>/capture-log`. */
  readonly captureLogDir: string;
  /** Recording bytes (uncompressed rrweb JSON) a session and a project may send to /s/ per minute. */
  readonly replayLimits: Readonly<ReplayLimits>;
  /**
   * Fastify's trustProxy: which proxies' X-Forwarded-For to believe for the client's address (sign-in
   * throttling, logs). false (default), true (any), or addresses and CIDR ranges.
   */
  readonly trustProxy: TrustProxy;
  /**
   * Whose X-Forwarded-For capture believes for `$ip`: HOGLET_TRUST_PROXY when it is set, else
   * proxies on loopback and private addresses (a client can send any `$ip` anyway).
   */
  readonly captureTrustProxy: TrustProxy;
  /** GeoIP at capture: the bundled DB-IP City Lite, the operator's .mmdb files, or off. */
  readonly geoipDatabase: GeoIpDatabaseSetting;
  /** Lets remote scrapers read GET /metrics with `Authorization: Bearer <token>`; null: loopback only. */
  readonly metricsToken: string | null;
  /** Recordings' blocks in S3-compatible object storage (HOGLET_RECORDINGS_S3_*); null: under dataDir. */
  readonly recordingsObjectStorage: RecordingsObjectStorage | null;
}

export type GeoIpDatabaseSetting = 'bundled' | 'off' | readonly string[];

export type TrustProxy = boolean | string;

/** Where events, persons and groups live: embedded chDB under dataDir, or a ClickHouse server. */
export interface EventStoreConfig {
  /** http(s):// URL of a ClickHouse server (credentials may be in it); null means embedded chDB. */
  readonly clickhouseUrl: string | null;
  /** Directory of the embedded chDB engine (one per process); ignored with a server. */
  readonly chdbPath: string;
  /** Database that holds Hoglet's tables. */
  readonly database: string;
  /** Cluster name for ON CLUSTER DDL, Replicated tables and a Distributed events table. */
  readonly cluster: string | null;
  /** Query-lane statements that run at once (one project may hold all but one); null: 2 embedded, 8 with a server. */
  readonly queryConcurrency: number | null;
}

/** Values given on the command line; they win over the environment. */
export interface ConfigFlags {
  dataDir?: string | undefined;
  port?: string | undefined;
  host?: string | undefined;
  logLevel?: string | undefined;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Env = Readonly<Record<string, string | undefined>>;

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function parsePort(raw: string, source: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 65535) {
    throw new ConfigError(`${source} must be a port number from 1 to 65535, got "${raw}"`);
  }
  return Number(raw);
}

function parseDatabaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('DATABASE_URL is not a valid URL');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(`DATABASE_URL must be a postgres:// URL, got protocol "${url.protocol}"`);
  }
  return raw;
}

function parseSiteUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`SITE_URL is not a valid URL: "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`SITE_URL must be an http(s) URL, got "${raw}"`);
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}

function parseClickhouseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('CLICKHOUSE_URL is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`CLICKHOUSE_URL must be an http(s):// URL, got protocol "${url.protocol}"`);
  }
  return raw;
}

/** Names that are printed into DDL must be plain identifiers; they come from the operator, not users. */
function parseIdentifier(raw: string, source: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(raw)) {
    throw new ConfigError(`${source} must be letters, digits and underscores, got "${raw}"`);
  }
  return raw;
}

function parseQueryTimeout(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 3600) {
    throw new ConfigError(`HOGLET_QUERY_TIMEOUT_SECONDS must be a whole number of seconds from 1 to 3600, got "${raw}"`);
  }
  return Number(raw);
}

/** A size in megabytes (fractions allowed, so tests and small machines can go below one). */
function parseMegabytes(raw: string, source: string, min: number): number {
  if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) < min || Number(raw) > 1_048_576) {
    throw new ConfigError(`${source} must be a number of megabytes from ${min} to 1048576, got "${raw}"`);
  }
  return Math.round(Number(raw) * 1024 * 1024);
}

function parseQueryResults(env: Env): ResultLimits {
  const cache = nonEmpty(env.HOGLET_QUERY_CACHE_MB);
  const entry = nonEmpty(env.HOGLET_QUERY_CACHE_ENTRY_MB);
  const result = nonEmpty(env.HOGLET_QUERY_RESULT_MAX_MB);
  return Object.freeze({
    cacheBytes: cache ? parseMegabytes(cache, 'HOGLET_QUERY_CACHE_MB', 0) : DEFAULT_RESULT_LIMITS.cacheBytes,
    cacheEntryBytes: entry ? parseMegabytes(entry, 'HOGLET_QUERY_CACHE_ENTRY_MB', 0) : DEFAULT_RESULT_LIMITS.cacheEntryBytes,
    maxResultBytes: result ? parseMegabytes(result, 'HOGLET_QUERY_RESULT_MAX_MB', 0.001) : DEFAULT_RESULT_LIMITS.maxResultBytes,
  });
}

/** A whole number from `min` to `max`, for settings that count things. */
function parseCount(raw: string, source: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${source} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function parseCaptureMemory(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 16 || Number(raw) > 65536) {
    throw new ConfigError(`HOGLET_CAPTURE_MEMORY_MB must be a whole number of megabytes from 16 to 65536, got "${raw}"`);
  }
  return Number(raw) * 1024 * 1024;
}

function parseTrustProxy(raw: string): TrustProxy {
  const value = raw.toLowerCase();
  if (value === 'true' || value === 'false') return value === 'true';
  const entries = value.split(',').map((entry) => entry.trim());
  const named = ['loopback', 'linklocal', 'uniquelocal'];
  const valid = (entry: string) => {
    const [address, bits, ...rest] = entry.split('/');
    return rest.length === 0 && (named.includes(entry) || (isIP(address!) !== 0 && (bits === undefined || /^\d{1,3}$/.test(bits))));
  };
  if (!entries.every(valid)) {
    throw new ConfigError(`HOGLET_TRUST_PROXY must be true, false, or comma-separated addresses/CIDR ranges (or loopback, linklocal, uniquelocal), got "${raw}"`);
  }
  return entries.join(',');
}

function parseGeoIpDatabase(raw: string): GeoIpDatabaseSetting {
  const value = raw.toLowerCase();
  if (value === 'off' || value === 'bundled') return value;
  const files = raw.split(',').map((entry) => entry.trim()).filter(Boolean);
  if (files.some((file) => !file.toLowerCase().endsWith('.mmdb'))) {
    throw new ConfigError(`HOGLET_GEOIP_DATABASE must be off, bundled, or comma-separated paths of .mmdb files, got "${raw}"`);
  }
  return Object.freeze(files.map((file) => path.resolve(file)));
}

/** A bearer secret for GET /metrics: long enough not to be guessed, no spaces. */
function parseMetricsToken(raw: string): string {
  if (!/^\S{16,}$/.test(raw)) {
    throw new ConfigError('HOGLET_METRICS_TOKEN must be at least 16 characters without spaces');
  }
  return raw;
}

function parseLogLevel(raw: string, source: string): LogLevel {
  const level = raw.toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new ConfigError(`${source} must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  }
  return level as LogLevel;
}

export function loadConfig(flags: ConfigFlags = {}, env: Env = process.env): Config {
  const portFlag = nonEmpty(flags.port);
  const portEnv = nonEmpty(env.PORT);
  const levelFlag = nonEmpty(flags.logLevel);
  const levelEnv = nonEmpty(env.HOGLET_LOG_LEVEL) ?? nonEmpty(env.LOG_LEVEL);
  const databaseUrl = nonEmpty(env.DATABASE_URL);
  const siteUrl = nonEmpty(env.SITE_URL);
  const clickhouseUrl = nonEmpty(env.CLICKHOUSE_URL);
  const clickhouseDatabase = nonEmpty(env.CLICKHOUSE_DATABASE);
  const clickhouseCluster = nonEmpty(env.CLICKHOUSE_CLUSTER);
  if (clickhouseCluster && !clickhouseUrl) {
    throw new ConfigError('CLICKHOUSE_CLUSTER needs CLICKHOUSE_URL (the embedded engine is a single node)');
  }
  const queryTimeout = nonEmpty(env.HOGLET_QUERY_TIMEOUT_SECONDS);
  const queryConcurrency = nonEmpty(env.HOGLET_QUERY_CONCURRENCY);
  const hogqlParsers = nonEmpty(env.HOGLET_HOGQL_PARSERS);
  const captureMemory = nonEmpty(env.HOGLET_CAPTURE_MEMORY_MB);
  const dataDir = path.resolve(nonEmpty(flags.dataDir) ?? nonEmpty(env.HOGLET_DATA_DIR) ?? './data');
  const captureLogDir = nonEmpty(env.HOGLET_CAPTURE_LOG_DIR);
  const trustProxy = nonEmpty(env.HOGLET_TRUST_PROXY);
  const geoipDatabase = nonEmpty(env.HOGLET_GEOIP_DATABASE);
  const metricsToken = nonEmpty(env.HOGLET_METRICS_TOKEN);
  return Object.freeze({
    dataDir,
    port: portFlag ? parsePort(portFlag, '--port') : portEnv ? parsePort(portEnv, 'PORT') : 8000,
    host: nonEmpty(flags.host) ?? nonEmpty(env.HOST) ?? '127.0.0.1',
    databaseUrl: databaseUrl ? parseDatabaseUrl(databaseUrl) : null,
    siteUrl: siteUrl ? parseSiteUrl(siteUrl) : null,
    logLevel: levelFlag
      ? parseLogLevel(levelFlag, '--log-level')
      : levelEnv
        ? parseLogLevel(levelEnv, 'HOGLET_LOG_LEVEL')
        : 'info',
    events: Object.freeze({
      clickhouseUrl: clickhouseUrl ? parseClickhouseUrl(clickhouseUrl) : null,
      chdbPath: path.join(dataDir, 'events'),
      database: clickhouseDatabase ? parseIdentifier(clickhouseDatabase, 'CLICKHOUSE_DATABASE') : 'hoglet',
      cluster: clickhouseCluster ? parseIdentifier(clickhouseCluster, 'CLICKHOUSE_CLUSTER') : null,
      queryConcurrency: queryConcurrency ? parseCount(queryConcurrency, 'HOGLET_QUERY_CONCURRENCY', 1, 64) : null,
    }),
    queryTimeoutSeconds: queryTimeout ? parseQueryTimeout(queryTimeout) : 30,
    hogqlParsers: hogqlParsers ? parseCount(hogqlParsers, 'HOGLET_HOGQL_PARSERS', 1, 16) : 2,
    queryResults: parseQueryResults(env),
    captureMemoryBytes: captureMemory ? parseCaptureMemory(captureMemory) : DEFAULT_DECODE_BUDGET_BYTES,
    captureLogDir: captureLogDir ? path.resolve(captureLogDir) : path.join(dataDir, 'capture-log'),
    replayLimits: parseReplayLimits(env),
    trustProxy: trustProxy ? parseTrustProxy(trustProxy) : false,
    captureTrustProxy: trustProxy ? parseTrustProxy(trustProxy) : DEFAULT_CAPTURE_TRUSTED_PROXIES,
    geoipDatabase: geoipDatabase ? parseGeoIpDatabase(geoipDatabase) : 'bundled',
    metricsToken: metricsToken ? parseMetricsToken(metricsToken) : null,
    recordingsObjectStorage: parseRecordingsObjectStorage(env),
  });
}

/**
 * HOGLET_RECORDINGS_S3_BUCKET turns object storage on; the rest follow PostHog's OBJECT_STORAGE_*
 * (ENDPOINT, REGION default us-east-1, ACCESS_KEY_ID, SECRET_ACCESS_KEY) plus PREFIX (default
 * session_recordings) and FORCE_PATH_STYLE (default true with an endpoint, as MinIO needs).
 */
function parseRecordingsObjectStorage(env: Record<string, string | undefined>): RecordingsObjectStorage | null {
  const bucket = nonEmpty(env.HOGLET_RECORDINGS_S3_BUCKET);
  const endpoint = nonEmpty(env.HOGLET_RECORDINGS_S3_ENDPOINT);
  const accessKeyId = nonEmpty(env.HOGLET_RECORDINGS_S3_ACCESS_KEY_ID) ?? null;
  const secretAccessKey = nonEmpty(env.HOGLET_RECORDINGS_S3_SECRET_ACCESS_KEY) ?? null;
  if (!bucket) {
    if (endpoint || accessKeyId) throw new ConfigError('HOGLET_RECORDINGS_S3_BUCKET is needed to keep recordings in object storage');
    return null;
  }
  if (endpoint && !/^https?:\/\/[^/]+/.test(endpoint)) throw new ConfigError(`HOGLET_RECORDINGS_S3_ENDPOINT must be an http(s):// URL, got "${endpoint}"`);
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new ConfigError('HOGLET_RECORDINGS_S3_ACCESS_KEY_ID and HOGLET_RECORDINGS_S3_SECRET_ACCESS_KEY go together');
  }
  const pathStyle = nonEmpty(env.HOGLET_RECORDINGS_S3_FORCE_PATH_STYLE);
  if (pathStyle && !/^(true|false|1|0)$/i.test(pathStyle)) throw new ConfigError(`HOGLET_RECORDINGS_S3_FORCE_PATH_STYLE must be true or false, got "${pathStyle}"`);
  return Object.freeze({
    endpoint: endpoint ?? null,
    bucket,
    region: nonEmpty(env.HOGLET_RECORDINGS_S3_REGION) ?? 'us-east-1',
    accessKeyId,
    secretAccessKey,
    prefix: (env.HOGLET_RECORDINGS_S3_PREFIX ?? 'session_recordings').replace(/^\/+|\/+$/g, ''),
    forcePathStyle: pathStyle ? /^(true|1)$/i.test(pathStyle) : Boolean(endpoint),
  });
}

/** HOGLET_REPLAY_SESSION_MB_PER_MINUTE and HOGLET_REPLAY_PROJECT_MB_PER_MINUTE (MiB, fractions allowed). */
function parseReplayLimits(env: Record<string, string | undefined>): ReplayLimits {
  const read = (name: string, fallback: number): number => {
    const text = nonEmpty(env[name]);
    if (!text) return fallback;
    const mb = Number(text);
    if (!Number.isFinite(mb) || mb <= 0) throw new ConfigError(`${name} must be a positive number of MiB, got "${text}"`);
    return Math.round(mb * 1024 * 1024);
  };
  return Object.freeze({
    sessionBytesPerMinute: read('HOGLET_REPLAY_SESSION_MB_PER_MINUTE', DEFAULT_REPLAY_LIMITS.sessionBytesPerMinute),
    projectBytesPerMinute: read('HOGLET_REPLAY_PROJECT_MB_PER_MINUTE', DEFAULT_REPLAY_LIMITS.projectBytesPerMinute),
  });
}
