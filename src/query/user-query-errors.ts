// The engine refusing a statement that carries a user's HogQL: a 400 with ClickHouse's reason
// (as PostHog exposes ExposedCHQueryError), never the printed SQL, our table names or parameters.
import { QueryRejectedError } from '../errors.js';

/** ClickHouse error codes a query's own text causes (types, arguments, names, parsing of values). */
const USER_FAULT: Readonly<Record<string, string>> = {
  '6': 'cannot_parse_text', '27': 'cannot_parse_input', '36': 'bad_arguments', '38': 'cannot_parse_date', '41': 'cannot_parse_datetime',
  '42': 'number_of_arguments_doesnt_match', '43': 'illegal_type_of_argument', '44': 'illegal_column', '46': 'unknown_function',
  '47': 'unknown_identifier', '48': 'not_implemented', '53': 'type_mismatch', '62': 'syntax_error', '69': 'argument_out_of_bound', '70': 'cannot_convert_type',
  '72': 'cannot_parse_number', '80': 'incorrect_query', '117': 'incorrect_data', '128': 'too_large_array_size', '131': 'too_large_string_size',
  '153': 'illegal_division', '179': 'multiple_expressions_for_alias', '184': 'illegal_aggregation', '190': 'sizes_of_arrays_dont_match',
  '215': 'not_an_aggregate', '321': 'value_is_out_of_range_of_data_type', '352': 'ambiguous_column_name', '386': 'no_common_type',
  '403': 'invalid_join_on_expression', '407': 'decimal_overflow', '10': 'not_found_column_in_block', '1': 'unsupported_method',
  '12': 'parameter_out_of_bound', '50': 'unknown_type', '125': 'incorrect_result_of_scalar_subquery', '207': 'ambiguous_identifier',
};

/** The first sentence of the engine's message, with anything that names our schema or SQL cut off. */
function reason(message: string): string {
  // The engine names the scope (the printed SQL) after "In scope" or "in scope", with or without a
  // colon, and some messages after "In query" (not an aggregate, not in GROUP BY keys).
  const first = message.split(/:? [Ii]n (?:scope|query)\b|: (?:While processing|while executing)|\. \(|\n/)[0] ?? '';
  const cleaned = first.replace(/Code: \d+\. /, '').replace(/DB::Exception: /g, '').replace(/`?[A-Za-z0-9_]+`?\.`?(events|persons|person_distinct_ids|person_distinct_id_overrides|groups|static_cohort_people)`?/g, '$1');
  return cleaned.trim().slice(0, 500) || 'The query could not run.';
}

/**
 * Codes that say the engine, not the statement, failed: resources, files, the network, its own
 * bugs, cancellation. Any other code on a statement carrying a user's HogQL is the text's fault:
 * the list of those is long and grows with every engine release, so it is not enumerated.
 */
const ENGINE_FAULT: ReadonlySet<string> = new Set([
  '3', '24', '49', '74', '75', '76', '81', '107', '159', '160', '173', '202', '209', '210', '225', '236', '241', '242', '243',
  '252', '279', '319', '394', '425', '439', '999', '1000', '1001', '1002',
]);

export function userQueryError(error: unknown): QueryRejectedError | null {
  const code = String((error as { code?: unknown })?.code ?? '');
  if (!/^\d+$/.test(code) || ENGINE_FAULT.has(code)) return null;
  return new QueryRejectedError(USER_FAULT[code] ?? 'query_error', reason(String((error as Error).message ?? '')));
}
