// The user allow-list as a Markdown page (docs/hogql-functions.md), so the documented list is the
// list the translator uses; a test keeps the page equal to this output.
import { allHogQLFunctions, type Family } from './index.js';
import { LEFT_OUT } from './left-out.js';

const TITLES: Record<Family, string> = { aggregate: 'Aggregate functions', scalar: 'Functions', window: 'Window functions' };

function arity(min: number, max: number | undefined): string {
  if (max === undefined) return `${min}+`;
  return min === max ? String(min) : `${min}–${max}`;
}

export function functionsMarkdown(): string {
  const all = allHogQLFunctions();
  const lines = [
    '# HogQL functions',
    '',
    '<!-- Generated from src/query/hogql/functions/ by `npm run docs:functions`; do not edit by hand. -->',
    '',
    `The ${all.length} functions a HogQL query (or a HogQL expression inside an insight) may call, with`,
    'the ClickHouse function each prints as and the number of arguments it takes. Names are',
    'case-sensitive unless marked *any case*; *tz* marks functions that get the project\'s time zone',
    'as their last argument when the caller gives none. Anything not listed is refused with',
    "400 `Unsupported function call 'name(...)'`. `matchesAction(id)` or `matchesAction('name')` (an",
    "action's steps as a condition on the events) is part of the language, as `IN COHORT` is, and",
    "`arrayReduce('name', array, ...)` takes the name of an aggregation listed below, as PostHog checks it.",
  ];
  for (const family of ['scalar', 'aggregate', 'window'] as const) {
    const entries = all.filter((f) => f.family === family).sort((a, b) => a.name.localeCompare(b.name, 'en'));
    lines.push('', `## ${TITLES[family]} (${entries.length})`, '', '| HogQL | ClickHouse | Arguments | Notes |', '| --- | --- | --- | --- |');
    for (const { name, fn } of entries) {
      const notes = [fn.caseInsensitive ? 'any case' : '', fn.tzAware ? 'tz' : '', fn.minParams !== undefined ? `parameters ${arity(fn.minParams, fn.maxParams)}` : ''].filter(Boolean).join(', ');
      lines.push(`| \`${name}\` | \`${fn.shape ?? fn.clickhouse}\` | ${arity(fn.minArgs, fn.maxArgs)} | ${notes} |`);
    }
  }
  lines.push('', "## PostHog's functions left out", '', "Compared function by function with PostHog's tables; everything else on PostHog's list is above.", '', '| Functions | Why |', '| --- | --- |');
  for (const { names, reason } of LEFT_OUT) lines.push(`| ${names.map((n) => (n.includes(' ') ? n : `\`${n}\``)).join(', ')} | ${reason} |`);
  return `${lines.join('\n')}\n`;
}
