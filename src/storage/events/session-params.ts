// chdb-node runs every statement that has bound parameters one at a time across the whole process
// (its wrapper chains them: libchdb's parameter guard is shared by all connections, and concurrent
// use corrupts values or aborts the engine), so two embedded connections could never run two
// analytical statements side by side. A session's own query parameters (`SET param_<name> = '…'`)
// belong to its connection: each statement's values are set on its connection right before it,
// inside its turn, and the statement then runs unbound, beside the other connections' statements.
// Values are formatted by @clickhouse/client's own formatter (exactly what a ClickHouse server is
// sent over HTTP for the same statement), then written as a string literal made only of \xHH
// escapes, so no value can end the literal: the SQL text holds no value of a user's. Values stay
// set on the session after the statement; every statement sets all the names it reads (the
// printers bind each one), so none reads a value left by another.
import { formatQueryParams } from '@clickhouse/client/dist/common/data_formatter/format_query_params.js';
import type { QueryParams } from './event-store.js';

const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*):/g;

/**
 * The SET statement giving a session the values of one statement; null when it reads none. Values
 * stay set on the session afterwards, so a placeholder the statement reads without a value of its
 * own would read the previous statement's (perhaps another project's): refused here, as chDB's own
 * binding refuses it, rather than trusted to every caller.
 */
export function sessionParamsStatement(sql: string, params: QueryParams): string | null {
  for (const [, name] of sql.matchAll(PLACEHOLDER)) {
    if (!Object.hasOwn(params, name!)) throw new Error(`the statement reads {${name}} but gives it no value`);
  }
  const names = Object.keys(params);
  if (names.length === 0) return null;
  const assignments = names.map((name) => {
    // Names come from our printers, never from requests; anything else is a bug.
    if (!PARAM_NAME.test(name)) throw new Error(`not a parameter name: ${JSON.stringify(name.slice(0, 40))}`);
    return `param_${name} = '${hexEscaped(formatQueryParams({ value: params[name] }))}'`;
  });
  return `SET ${assignments.join(', ')}`;
}

/** Every UTF-8 byte of the text as a \xHH escape. */
function hexEscaped(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) out += `\\x${byte.toString(16).padStart(2, '0')}`;
  return out;
}
