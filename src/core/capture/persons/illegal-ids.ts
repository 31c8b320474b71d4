// Distinct ids that PostHog never merges: placeholders SDKs and apps send by mistake. Merging on
// them would fold unrelated people into one person.
const CASE_INSENSITIVE = new Set([
  'anonymous',
  'guest',
  'distinctid',
  'distinct_id',
  'id',
  'not_authenticated',
  'email',
  'undefined',
  'true',
  'false',
]);
const CASE_SENSITIVE = new Set(['[object Object]', 'NaN', 'None', 'none', 'null', '0']);

export function isIllegalMergeId(distinctId: string): boolean {
  let id = distinctId.trim();
  if (id === '') return true;
  if (id.length >= 2 && (id[0] === '"' || id[0] === "'") && id.at(-1) === id[0]) id = id.slice(1, -1).trim();
  return CASE_INSENSITIVE.has(id.toLowerCase()) || CASE_SENSITIVE.has(id);
}
