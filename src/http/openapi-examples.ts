// Request bodies shown in the OpenAPI document (Swagger UI's "Examples" menu). They name the
// demo product's events (`hoglet demo`), so each one answers with data on a demo project.
// test/http/openapi.test.ts sends every one of them to the server.
//
// They are added to the finished document rather than declared in the route schemas: the
// schema-to-OpenAPI conversion walks everything in a schema and turns any `properties` array
// (PostHog's property filters) into an object, which no server would accept.

/** An OpenAPI Example Object: what Swagger UI lists by `summary` and fills in as the body. */
interface Example {
  summary: string;
  description?: string;
  value: Record<string, unknown>;
}

const dailyActiveUsers = {
  kind: 'TrendsQuery',
  series: [{ kind: 'EventsNode', event: '$pageview', name: '$pageview', math: 'dau' }],
  interval: 'day',
  dateRange: { date_from: '-7d' },
};

const signupsByBrowser = {
  kind: 'TrendsQuery',
  series: [{ kind: 'EventsNode', event: 'signed_up', name: 'signed_up', math: 'total' }],
  interval: 'week',
  dateRange: { date_from: '-30d' },
  breakdownFilter: { breakdown: '$browser', breakdown_type: 'event' },
};

const pricingToPaying = {
  kind: 'FunnelsQuery',
  series: [
    {
      kind: 'EventsNode',
      event: '$pageview',
      name: '$pageview',
      properties: [{ key: '$pathname', value: '/pricing', operator: 'exact', type: 'event' }],
    },
    { kind: 'EventsNode', event: 'signed_up', name: 'signed_up' },
    { kind: 'EventsNode', event: 'upgraded_plan', name: 'upgraded_plan' },
  ],
  funnelsFilter: { funnelWindowInterval: 14, funnelWindowIntervalUnit: 'day', funnelOrderType: 'ordered' },
  dateRange: { date_from: '-30d' },
};

/** Examples of the POST /query/ body. */
export const QUERY_BODY_EXAMPLES: Record<string, Example> = {
  trend: {
    summary: 'Trend: daily active users, last 7 days',
    description: 'Blocking (the default for /query/): the answer carries the results.',
    value: { query: dailyActiveUsers },
  },
  trend_breakdown: {
    summary: 'Trend: weekly sign-ups by browser, last 30 days',
    value: { query: signupsByBrowser },
  },
  funnel: {
    summary: 'Funnel: pricing page, then sign-up, then upgrade within 14 days',
    value: { query: pricingToPaying },
  },
  insight_viz_force_blocking: {
    summary: 'An InsightVizNode (as saved insights hold), recalculated even if cached',
    description: 'refresh: force_blocking ignores the cache; force_cache answers only from it; blocking uses a fresh cached result or calculates.',
    value: { query: { kind: 'InsightVizNode', source: dailyActiveUsers }, refresh: 'force_blocking' },
  },
  async: {
    summary: 'In the background: 202, then poll GET /query/{client_query_id}/',
    description: 'refresh: async (or force_async, lazy_async) answers at once: 200 with a fresh cached result, else 202 with a query_status; the id names the calculation for polling and cancel.',
    value: {
      query: { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: 'signed_up', name: 'signed_up' }], dateRange: { date_from: '-90d' } },
      refresh: 'async',
      client_query_id: 'signups-90d-1',
    },
  },
};

/** Examples of the insight create (and update) body. */
export const INSIGHT_BODY_EXAMPLES: Record<string, Example> = {
  trend: {
    summary: 'A saved trend: daily active users',
    value: {
      name: 'Daily active users',
      description: 'Unique users with a pageview, per day',
      query: { kind: 'InsightVizNode', source: dailyActiveUsers },
    },
  },
  funnel: {
    summary: 'A saved funnel: pricing to paying',
    value: { name: 'Pricing to paying', query: { kind: 'InsightVizNode', source: pricingToPaying } },
  },
};

/** Which operations get which examples: method and path (OpenAPI's `{param}` form). */
const EXAMPLES_BY_OPERATION: readonly (readonly [string, RegExp, Record<string, Example>])[] = [
  ['post', /^\/api\/(projects|environments)\/\{project_id\}\/query\/$/, QUERY_BODY_EXAMPLES],
  ['post', /^\/api\/(projects|environments)\/\{project_id\}\/insights\/$/, INSIGHT_BODY_EXAMPLES],
  ['patch', /^\/api\/(projects|environments)\/\{project_id\}\/insights\/\{id\}\/$/, INSIGHT_BODY_EXAMPLES],
];

type Operations = Record<string, { requestBody?: { content?: Record<string, { examples?: unknown }> } } | undefined>;

/** Sets the JSON request body examples of the operations above (for @fastify/swagger's transformObject). */
export function addRequestExamples<T extends { paths?: object }>(document: T): T {
  for (const [path, operations] of Object.entries((document.paths ?? {}) as Record<string, Operations>)) {
    for (const [method, pattern, examples] of EXAMPLES_BY_OPERATION) {
      const media = pattern.test(path) ? operations[method]?.requestBody?.content?.['application/json'] : undefined;
      // A copy: the document is cached and served, the constants stay untouched.
      if (media) media.examples = structuredClone(examples);
    }
  }
  return document;
}
