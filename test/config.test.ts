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
    });
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
