// Runs the server: builds services and the app, listens, and drains cleanly on SIGTERM/SIGINT.
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { exitOnFatalErrors } from './fatal-errors.js';
import { buildApp } from './http/app.js';
import { serverLoggerOptions } from './http/log-redaction.js';
import { localUrl } from './local-url.js';
import { createServices } from './services.js';
import { announceServerAddress } from './storage/events/owner-lock.js';

export interface RunningServer {
  app: FastifyInstance;
  /** Stops accepting connections, waits for in-flight requests, then closes the stores. */
  stop(): Promise<void>;
}

export async function serve(config: Config): Promise<RunningServer> {
  let app: FastifyInstance | undefined;
  const services = await createServices(config, {
    onBackgroundError: (error) => app?.log.warn({ err: error }, 'background task failed'),
  });
  // After the event store opened: its engine installs signal handlers that must not keep us alive.
  exitOnFatalErrors({
    log: (error, what) => (app ? app.log.fatal({ err: error }, what) : process.stderr.write(`hoglet: ${what}: ${String(error)}\n`)),
  });
  app = await buildApp(services, { logger: serverLoggerOptions(config.logLevel) });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const url = localUrl(config.host, typeof address === 'object' && address ? address.port : config.port);
  // `hoglet import` and `demo` find this server through it, whatever port it listens on.
  const unannounce = config.events.clickhouseUrl ? () => {} : announceServerAddress(config.events.chdbPath, url);
  app.log.info(`Hoglet is listening on ${url} (health: ${url}/_health, API docs: ${url}/api/schema/swagger-ui/)`);
  // Off the request path: the first located event then finds the GeoIP database in memory.
  void services.geoip?.preload();
  // Events past a project's retention are removed soon after start, then every hour.
  services.eventRetention.start();
  services.recordingRetention.start();
  if (services.captureReplayed > 0) app.log.info(`inserting ${services.captureReplayed} acknowledged events from the capture log`);

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      await app.close();
      unannounce();
      await services.close();
    })());

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      app.log.info({ signal }, 'draining in-flight requests before exit');
      stop().then(
        () => {
          app.log.info('stopped cleanly');
          process.exit(0);
        },
        (error: unknown) => {
          app.log.error({ err: error }, 'error while stopping');
          process.exit(1);
        },
      );
    });
  }
  return { app, stop };
}

