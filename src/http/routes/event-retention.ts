// Hoglet's event retention status (issue 32): the setting is the project's event_retention_months
// (PATCH the project); this route says what it keeps now and what the retention job last removed.
// Under /api/projects/:project_id/ and /api/environments/:project_id/, as the project's own routes.
import { Type } from 'typebox';
import type { Services } from '../../services.js';
import { principalOf } from '../auth.js';
import type { HogletApp } from '../hoglet-app.js';
import { Nullable, errorResponses } from '../schemas/common.js';

const Params = Type.Object({ project_id: Type.String() });

const EventRetention = Type.Object({
  event_retention_months: Nullable(Type.Integer()),
  keeps_events_from: Nullable(Type.String({ format: 'date-time', description: 'the first instant kept; older events are removed' })),
  last_run: Nullable(Type.Object({
    cutoff: Type.String({ format: 'date-time' }),
    ran_at: Type.String({ format: 'date-time' }),
    events_removed: Type.Integer({ description: 'by the last run that removed any' }),
  })),
});

export function eventRetentionRoutes(app: HogletApp, services: Services): void {
  for (const prefix of ['/api/projects', '/api/environments']) {
    app.get(`${prefix}/:project_id/event_retention/`, {
      config: { scope: 'project:read' },
      schema: { tags: ['projects'], summary: 'What the project keeps and what the retention job last removed', params: Params, response: { 200: EventRetention, ...errorResponses } },
      handler: (request) => services.eventRetentionStatus.of(principalOf(request), request.params.project_id),
    });
  }
}
