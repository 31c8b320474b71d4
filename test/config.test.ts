import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('configuration', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({}, {})).toEqual({
      dataDir: path.resolve('./data'),
      port: 8000,
      host: '127.0.0.1',
      databaseUrl: null,
      siteUrl: null,
      logLevel: 'info',
      events: { clickhouseUrl: null, chdbPath: path.resolve('./data/events'), database: 'hoglet', cluster: null, queryConcurrency: null },
      queryTimeoutSeconds: 30,
      hogqlParsers: 2,
      queryResults: { cacheBytes: 256 * 1024 * 1024, cacheEntryBytes: 10 * 1024 * 1024, maxResultBytes: 100 * 1024 * 1024 },
      captureMemoryBytes: 512 * 1024 * 1024,
      captureLogDir: path.resolve('./data/capture-log'),
      replayLimits: { sessionBytesPerMinute: 20 * 1024 * 1024, projectBytesPerMinute: 500 * 1024 * 1024 },
      trustProxy: false,
      captureTrustProxy: 'loopback,uniquelocal',
      geoipDatabase: 'bundled',
      metricsToken: null,
      recordingsObjectStorage: null,
    });
  });

  it('keeps recordings in S3-compatible object storage when a bucket is set, and refuses half a configuration', () => {
    expect(loadConfig({}, {
      HOGLET_RECORDINGS_S3_BUCKET: 'replays', HOGLET_RECORDINGS_S3_ENDPOINT: 'http://127.0.0.1:9000',
      HOGLET_RECORDINGS_S3_ACCESS_KEY_ID: 'id', HOGLET_RECORDINGS_S3_SECRET_ACCESS_KEY: 'secret', HOGLET_RECORDINGS_S3_PREFIX: '/rec/',
    }).recordingsObjectStorage).toEqual({
      endpoint: 'http://127.0.0.1:9000', bucket: 'replays', region: 'us-east-1', accessKeyId: 'id', secretAccessKey: 'secret', prefix: 'rec', forcePathStyle: true,
    });
    // AWS S3 itself: no endpoint, the SDK's credential chain, virtual-hosted addresses, PostHog-like prefix.
    expect(loadConfig({}, { HOGLET_RECORDINGS_S3_BUCKET: 'replays', HOGLET_RECORDINGS_S3_REGION: 'eu-west-1' }).recordingsObjectStorage).toEqual({
      endpoint: null, bucket: 'replays', region: 'eu-west-1', accessKeyId: null, secretAccessKey: null, prefix: 'session_recordings', forcePathStyle: false,
    });
    expect(() => loadConfig({}, { HOGLET_RECORDINGS_S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(/HOGLET_RECORDINGS_S3_BUCKET/);
    expect(() => loadConfig({}, { HOGLET_RECORDINGS_S3_BUCKET: 'b', HOGLET_RECORDINGS_S3_ACCESS_KEY_ID: 'id' })).toThrow(/SECRET_ACCESS_KEY/);
    expect(() => loadConfig({}, { HOGLET_RECORDINGS_S3_BUCKET: 'b', HOGLET_RECORDINGS_S3_ENDPOINT: 'minio:9000' })).toThrow(/http/);
    expect(() => loadConfig({}, { HOGLET_RECORDINGS_S3_BUCKET: 'b', HOGLET_RECORDINGS_S3_FORCE_PATH_STYLE: 'maybe' })).toThrow(/FORCE_PATH_STYLE/);
  });

  it('reads the recording budgets in MiB per minute and refuses unusable ones', () => {
    expect(loadConfig({}, { HOGLET_REPLAY_SESSION_MB_PER_MINUTE: '0.5', HOGLET_REPLAY_PROJECT_MB_PER_MINUTE: '100' }).replayLimits).toEqual({
      sessionBytesPerMinute: 512 * 1024,
      projectBytesPerMinute: 100 * 1024 * 1024,
    });
    for (const bad of ['0', '-1', 'lots']) expect(() => loadConfig({}, { HOGLET_REPLAY_SESSION_MB_PER_MINUTE: bad }), bad).toThrow(/HOGLET_REPLAY_SESSION_MB_PER_MINUTE/);
  });

  it('reads the metrics token and refuses a short one', () => {
    expect(loadConfig({}, { HOGLET_METRICS_TOKEN: ' scrape-me-0123456789 ' }).metricsToken).toBe('scrape-me-0123456789');
    for (const bad of ['short', 'has a space in it 0123']) expect(() => loadConfig({}, { HOGLET_METRICS_TOKEN: bad }), bad).toThrow(/HOGLET_METRICS_TOKEN/);
  });

  it('reads the query connections and parser workers and refuses unusable counts', () => {
    const config = loadConfig({}, { HOGLET_QUERY_CONCURRENCY: '3', HOGLET_HOGQL_PARSERS: '4' });
    expect(config.events.queryConcurrency).toBe(3);
    expect(config.hogqlParsers).toBe(4);
    for (const bad of ['0', 'many', '1.5', '65']) expect(() => loadConfig({}, { HOGLET_QUERY_CONCURRENCY: bad }), bad).toThrow(/HOGLET_QUERY_CONCURRENCY/);
    for (const bad of ['0', '17']) expect(() => loadConfig({}, { HOGLET_HOGQL_PARSERS: bad }), bad).toThrow(/HOGLET_HOGQL_PARSERS/);
  });

  it('reads the result cache and result size limits in megabytes', () => {
    const limits = loadConfig({}, { HOGLET_QUERY_CACHE_MB: '64', HOGLET_QUERY_CACHE_ENTRY_MB: '0.5', HOGLET_QUERY_RESULT_MAX_MB: '20' }).queryResults;
    expect(limits).toEqual({ cacheBytes: 64 * 1024 * 1024, cacheEntryBytes: 512 * 1024, maxResultBytes: 20 * 1024 * 1024 });
    for (const bad of ['-1', 'lots', '1e3', '2000000']) {
      expect(() => loadConfig({}, { HOGLET_QUERY_CACHE_MB: bad }), bad).toThrow(/HOGLET_QUERY_CACHE_MB/);
    }
    expect(() => loadConfig({}, { HOGLET_QUERY_RESULT_MAX_MB: '0' })).toThrow(/HOGLET_QUERY_RESULT_MAX_MB/);
  });

  it('reads which proxies to trust and refuses what Fastify could not use', () => {
    expect(loadConfig({}, { HOGLET_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({}, { HOGLET_TRUST_PROXY: '10.0.0.0/8, loopback' }).trustProxy).toBe('10.0.0.0/8,loopback');
    for (const bad of ['yes', '2', '10.0.0/8', 'example.com']) {
      expect(() => loadConfig({}, { HOGLET_TRUST_PROXY: bad }), bad).toThrow(/HOGLET_TRUST_PROXY/);
    }
  });

  it('keeps the capture log in the data directory unless told where', () => {
    expect(loadConfig({ dataDir: '/srv/hoglet' }, {}).captureLogDir).toBe('/srv/hoglet/capture-log');
    expect(loadConfig({ dataDir: '/srv/hoglet' }, { HOGLET_CAPTURE_LOG_DIR: '/mnt/durable/log' }).captureLogDir).toBe('/mnt/durable/log');
  });

  it('reads the capture memory budget and refuses unusable ones', () => {
    expect(loadConfig({}, { HOGLET_CAPTURE_MEMORY_MB: '64' }).captureMemoryBytes).toBe(64 * 1024 * 1024);
    for (const bad of ['0', '15', '1.5', 'lots', '70000']) {
      expect(() => loadConfig({}, { HOGLET_CAPTURE_MEMORY_MB: bad }), bad).toThrow(/HOGLET_CAPTURE_MEMORY_MB/);
    }
  });

  it('reads the query time limit and refuses unusable ones', () => {
    expect(loadConfig({}, { HOGLET_QUERY_TIMEOUT_SECONDS: '5' }).queryTimeoutSeconds).toBe(5);
    for (const bad of ['0', '-1', '1.5', 'ten', '3601']) {
      expect(() => loadConfig({}, { HOGLET_QUERY_TIMEOUT_SECONDS: bad }), bad).toThrow(/HOGLET_QUERY_TIMEOUT_SECONDS/);
    }
  });

  it('reads the ClickHouse settings and refuses unusable ones', () => {
    const env = { CLICKHOUSE_URL: 'https://ch.example:8443', CLICKHOUSE_DATABASE: 'analytics', CLICKHOUSE_CLUSTER: 'main' };
    expect(loadConfig({}, env).events).toMatchObject({ clickhouseUrl: 'https://ch.example:8443', database: 'analytics', cluster: 'main' });
    expect(() => loadConfig({}, { CLICKHOUSE_URL: 'tcp://x:9000' })).toThrow(/CLICKHOUSE_URL must be an http/);
    expect(() => loadConfig({}, { CLICKHOUSE_URL: 'http://x', CLICKHOUSE_DATABASE: 'a; DROP' })).toThrow(/CLICKHOUSE_DATABASE/);
    expect(() => loadConfig({}, { CLICKHOUSE_CLUSTER: 'main' })).toThrow(/CLICKHOUSE_CLUSTER needs CLICKHOUSE_URL/);
  });

  it('reads the environment, and flags win over it', () => {
    const env = { HOGLET_DATA_DIR: '/tmp/a', PORT: '9000', HOST: '0.0.0.0', HOGLET_LOG_LEVEL: 'debug' };
    expect(loadConfig({}, env)).toMatchObject({ dataDir: '/tmp/a', port: 9000, host: '0.0.0.0', logLevel: 'debug' });
    expect(loadConfig({ dataDir: '/tmp/b', port: '9001', host: '::1', logLevel: 'warn' }, env)).toMatchObject({
      dataDir: '/tmp/b',
      port: 9001,
      host: '::1',
      logLevel: 'warn',
    });
  });

  it('takes a postgres DATABASE_URL and normalises SITE_URL', () => {
    const config = loadConfig({}, { DATABASE_URL: 'postgres://u:p@db:5432/h', SITE_URL: 'https://h.example.com/' });
    expect(config.databaseUrl).toBe('postgres://u:p@db:5432/h');
    expect(config.siteUrl).toBe('https://h.example.com');
  });

  it('is frozen', () => {
    expect(Object.isFrozen(loadConfig({}, {}))).toBe(true);
  });

  it.each([
    [{}, { PORT: 'eighty' }, /PORT must be a port number/],
    [{ port: '70000' }, {}, /--port must be a port number/],
    [{}, { DATABASE_URL: 'mysql://x/y' }, /DATABASE_URL must be a postgres:\/\/ URL/],
    [{}, { DATABASE_URL: 'not a url' }, /DATABASE_URL is not a valid URL/],
    [{}, { SITE_URL: 'ftp://x' }, /SITE_URL must be an http\(s\) URL/],
    [{ logLevel: 'loud' }, {}, /--log-level must be one of/],
  ])('refuses bad values with a clear message (%o %o)', (flags, env, message) => {
    expect(() => loadConfig(flags, env)).toThrow(ConfigError);
    expect(() => loadConfig(flags, env)).toThrow(message);
  });
});
