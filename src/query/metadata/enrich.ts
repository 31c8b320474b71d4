// A HogQLQuery's 400 enriched as PostHog enriches it (posthog/hogql/metadata.py's
// enrich_hogql_validation_error): the detail gains a "Hint: <fix>" line per fix and "Tables
// referenced: ...", and the body carries `extra.hogql_metadata` (the HogQLMetadata answer for the
// query, without empty fields). Only HogQL's own refusals are enriched, as PostHog enriches only
// its ExposedHogQLError; engine refusals and internal errors stay as they are.
import { QueryRejectedError, type ErrorBody } from '../../errors.js';
import type { HogQLQuery } from '../nodes/schema.js';
import { hogqlMetadata, type HogQLMetadataResponse, type MetadataDeps } from './metadata.js';

const HOGQL_CODES: ReadonlySet<string> = new Set(['hogql_syntax_error', 'hogql_query_error', 'hogql_error']);

export class HogQLErrorWithMetadata extends QueryRejectedError {
  constructor(code: string, detail: string, readonly extra: Record<string, unknown>) {
    super(code, detail);
  }

  override toBody(): ErrorBody {
    return { ...super.toBody(), extra: this.extra };
  }
}

/** PostHog's model_dump(exclude_none=True): notices without their empty start, end or fix. */
const withoutNulls = (metadata: HogQLMetadataResponse) => {
  const notices = (list: HogQLMetadataResponse['errors']) => list.map((n) => Object.fromEntries(Object.entries(n).filter(([, v]) => v !== null)));
  return { ...metadata, errors: notices(metadata.errors), warnings: notices(metadata.warnings), notices: notices(metadata.notices) };
};

/** The error to answer with: `error` enriched when it is HogQL's refusal of `query`, else `error`. */
export async function enrichHogQLError(error: unknown, query: HogQLQuery, deps: MetadataDeps): Promise<unknown> {
  if (!(error instanceof QueryRejectedError) || !HOGQL_CODES.has(error.code)) return error;
  let metadata: HogQLMetadataResponse;
  try {
    metadata = await hogqlMetadata({
      language: 'hogQL', query: query.query, sourceQuery: null, filters: null, values: query.values, debug: false,
    }, deps);
  } catch {
    return error;
  }
  const lines = [error.detail];
  for (const notice of [...metadata.errors, ...metadata.warnings, ...metadata.notices]) {
    if (notice.fix && !lines.includes(notice.fix)) lines.push(`Hint: ${notice.fix}`);
  }
  if (metadata.table_names.length > 0) lines.push(`Tables referenced: ${metadata.table_names.join(', ')}`);
  return new HogQLErrorWithMetadata(error.code, lines.join('\n'), { hogql_metadata: withoutNulls(metadata) });
}
