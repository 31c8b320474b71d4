// HogQL's exposed errors, as PostHog answers them from /query/: a 400 validation_error whose code
// says which stage refused the query (PostHog's ExposedHogQLError code names).
import { QueryRejectedError } from '../../errors.js';

/** The query names something that does not exist or may not be used (PostHog's QueryError). */
export class HogQLQueryError extends QueryRejectedError {
  constructor(detail: string) {
    super('hogql_query_error', detail);
  }
}

/** A HogQL construct Hoglet does not run yet: the client can rewrite the query. */
export class HogQLNotSupportedError extends QueryRejectedError {
  constructor(what: string) {
    super('hogql_error', `${what} is not supported in HogQL queries.`);
  }
}
