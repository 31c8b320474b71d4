// What parsing refuses, as PostHog answers it: a 400 validation_error, `hogql_syntax_error` with
// the position in the detail (PostHog keeps positions out of /query/ bodies; the text says where),
// or `query_too_complex` for input the parser cannot take safely.
import { ApiError, QueryRejectedError, ThrottledError } from '../../../errors.js';

export interface TextPosition {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

export class HogQLSyntaxError extends QueryRejectedError {
  constructor(message: string, readonly start: TextPosition | null, readonly end: TextPosition | null) {
    // The parser counts lines from 0 and columns from 0; people count both from 1.
    super('hogql_syntax_error', start ? `Syntax error at line ${start.line + 1}, column ${start.column + 1}: ${message}` : `Syntax error: ${message}`);
  }
}

export class QueryTooComplexError extends QueryRejectedError {
  constructor(detail: string) {
    super('query_too_complex', detail);
  }
}

/** Every parser slot is taken and the queue is full: try again shortly. */
export class ParserBusyError extends ApiError {
  constructor() {
    super(503, 'server_error', 'parser_busy', 'Too many HogQL queries are being parsed at once; try again shortly.');
  }
}

/** The project has as many HogQL parses waiting as it may; other projects' parses go on. */
export class ProjectParsesBusyError extends ThrottledError {
  constructor() {
    super('This project has too many HogQL queries waiting to be parsed; try again shortly.');
  }
}
