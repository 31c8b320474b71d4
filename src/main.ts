// Runs the server: builds services and the app, listens, and drains cleanly on SIGTERM/SIGINT.
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { buildApp } from './http/app.js';
import { createServices } from './services.js';

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
  app = await buildApp(services, { logger: { level: config.logLevel } });
  await app.listen({ port: config.port, host: config.host });

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      await app.close();
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
