// Reads a WebOverviewQuery node: the web base fields only (PostHog's WebOverviewQuery adds none).
import type { JsonObject } from '../../nodes/read-json.js';
import type { WebOverviewQuery } from '../../nodes/schema.js';
import { readWebAnalyticsBase } from '../web-shared/read.js';

export function readWebOverviewQuery(node: JsonObject, path: string): WebOverviewQuery {
  return Object.freeze({ kind: 'WebOverviewQuery', ...readWebAnalyticsBase(node, path) });
}
