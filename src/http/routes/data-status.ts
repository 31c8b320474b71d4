// What `hoglet status` asks the running server for while it owns the embedded event store (chDB
// lets one process open it): events and persons per project. Not a public endpoint: it answers only
// the token the server wrote into its data directory (src/status/status-token.ts).
import type { Services } from '../../services.js';
import { AuthenticationFailedError } from '../../errors.js';
import { countsPerProject } from '../../status/project-counts.js';
import { sameToken, writeStatusToken } from '../../status/status-token.js';
import type { HogletApp } from '../hoglet-app.js';

export function dataStatusRoutes(app: HogletApp, services: Services): void {
  // With a ClickHouse server, `hoglet status` reads the store itself: nothing to answer here.
  if (services.config.events.clickhouseUrl) return;
  const token = writeStatusToken(services.config.events.chdbPath);
  app.get('/_status/projects', { schema: { hide: true } }, async (request) => {
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!sameToken(given, token)) throw new AuthenticationFailedError('Invalid status token.');
    return { projects: await countsPerProject(services.events) };
  });
}
