// An action's steps as PostHog's ActionStepType has them, the API calls of the actions pages, and
// the query that counts what unsaved steps match (Hoglet's query layer reads saved actions only).
import { api } from '../../api';
import { forgetActions } from '../../lib/definitions';
import { complete, readFilters, type PropertyFilter } from '../../lib/filters';
import type { Page, QueryNode, UserBasic } from '../../types';

export type StepMatching = 'contains' | 'regex' | 'exact';

export interface ActionStep {
  event: string | null;
  url?: string | null;
  url_matching?: StepMatching | null;
  selector?: string | null;
  tag_name?: string | null;
  text?: string | null;
  text_matching?: StepMatching | null;
  href?: string | null;
  href_matching?: StepMatching | null;
  properties?: PropertyFilter[] | null;
}

export interface Action {
  id: number;
  name: string;
  description: string;
  tags: string[];
  steps: ActionStep[];
  created_at: string;
  created_by: UserBasic | null;
  deleted: boolean;
}

export type ActionEdit = Pick<Action, 'name' | 'description' | 'tags' | 'steps'>;

export const MATCHINGS: [StepMatching, string][] = [['contains', 'contains'], ['regex', 'matches regex'], ['exact', 'matches exactly']];

export const blankStep = (): ActionStep => ({ event: '$pageview', url: '', url_matching: 'contains', properties: [] });
export const autocaptureStep = (): ActionStep => ({ event: '$autocapture', text: '', text_matching: 'exact', href: '', href_matching: 'exact', selector: '', tag_name: '', url: '', url_matching: 'contains', properties: [] });

const base = (project: string) => `/api/projects/${project}/actions/`;

export const listActions = (project: string, signal: AbortSignal) => api<Page<Action>>(`${base(project)}?limit=500`, { signal });
export const getAction = (project: string, id: string, signal: AbortSignal) => api<Action>(`${base(project)}${id}/`, { signal });

export async function saveAction(project: string, id: number | null, edit: ActionEdit): Promise<Action> {
  const body = { ...edit, steps: edit.steps.map(cleanStep) };
  const saved = await api<Action>(id === null ? base(project) : `${base(project)}${id}/`, { method: id === null ? 'POST' : 'PATCH', body });
  forgetActions(project);
  return saved;
}

/** PostHog keeps actions that insights may refer to: delete is a soft delete (PATCH deleted). */
export async function deleteAction(project: string, id: number): Promise<void> {
  await api(`${base(project)}${id}/`, { method: 'PATCH', body: { deleted: true } });
  forgetActions(project);
}

/** A step as saved: blank fields as null, only complete property filters. */
export function cleanStep(step: ActionStep): ActionStep {
  const text = (v: string | null | undefined) => (v === undefined || v === null || v.trim() === '' ? null : v);
  const out: ActionStep = {
    event: text(step.event),
    url: text(step.url),
    url_matching: text(step.url) === null ? null : step.url_matching ?? 'contains',
    selector: text(step.selector),
    tag_name: text(step.tag_name),
    text: text(step.text),
    text_matching: text(step.text) === null ? null : step.text_matching ?? 'exact',
    href: text(step.href),
    href_matching: text(step.href) === null ? null : step.href_matching ?? 'exact',
    properties: complete(readFilters(step.properties) ?? []),
  };
  return out;
}

/** One line per step for the list: "$autocapture with text "Sign up" on a URL containing /pricing". */
export function stepSummary(step: ActionStep): string {
  const parts: string[] = [step.event ? step.event : 'any event'];
  const verb = (m: StepMatching | null | undefined, fallback: StepMatching) => ({ contains: 'containing', regex: 'matching regex', exact: 'equal to' })[m ?? fallback];
  if (step.text) parts.push(`text ${verb(step.text_matching, 'exact')} "${step.text}"`);
  if (step.href) parts.push(`link ${verb(step.href_matching, 'exact')} "${step.href}"`);
  if (step.selector) parts.push(`selector ${step.selector}`);
  if (step.tag_name) parts.push(`tag <${step.tag_name}>`);
  if (step.url) parts.push(`URL ${verb(step.url_matching, 'contains')} "${step.url}"`);
  const props = step.properties?.length ?? 0;
  if (props) parts.push(`${props} ${props === 1 ? 'filter' : 'filters'}`);
  return parts.join(', ');
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A HogQL string literal; the server parses it into a constant, so it is bound, never spliced into SQL. */
const literal = (text: string): string => `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;
const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const hogql = (key: string): QueryNode => ({ key, type: 'hogql', operator: 'exact' });

function textMatch(field: string, pattern: string, matching: StepMatching): string {
  const test = matching === 'exact' ? `${field} = ${literal(pattern)}` : matching === 'regex' ? `match(${field}, ${literal(pattern)})` : `${field} LIKE ${literal(likePattern(pattern))}`;
  return `ifNull(${test}, false)`;
}

/** href="..." and text="..." inside elements_chain, as the server matches an action's step. */
function attributeMatch(name: 'href' | 'text', value: string, matching: StepMatching): string {
  const inner = matching === 'exact' ? escapeRegex(value) : matching === 'contains' ? `[^"]*${escapeRegex(value)}[^"]*` : `(${value})`;
  return `match(elements_chain, ${literal(`(^|[:";])${name}="${inner}"`)})`;
}

/**
 * A step as a property group: its event, URL and element conditions as HogQL filters (the same
 * conditions Hoglet's query layer makes of a saved step) and its own property filters as they are.
 */
function stepGroup(raw: ActionStep): QueryNode {
  const step = cleanStep(raw);
  const values: QueryNode[] = [];
  if (step.event) values.push(hogql(`event = ${literal(step.event)}`));
  if (step.url) values.push(hogql(textMatch('properties.$current_url', step.url, step.url_matching ?? 'contains')));
  if (step.tag_name) values.push(hogql(`match(elements_chain, ${literal(`(^|;)${escapeRegex(step.tag_name)}([.:]|$)`)})`));
  if (step.href) values.push(hogql(attributeMatch('href', step.href, step.href_matching ?? 'exact')));
  if (step.text) values.push(hogql(attributeMatch('text', step.text, step.text_matching ?? 'exact')));
  // The server cannot evaluate CSS selectors yet and matches none; the count says the same.
  if (step.selector) values.push(hogql('false'));
  values.push(...(step.properties ?? []));
  return { type: 'AND', values };
}

export const COUNT_DAYS = 30;

/** A trend of every event any step matches over the last 30 days, as one number. */
export function countQuery(steps: ActionStep[]): QueryNode {
  return {
    kind: 'TrendsQuery',
    series: [{ kind: 'EventsNode', event: null, name: 'All events', properties: { type: 'OR', values: steps.map(stepGroup) } }],
    dateRange: { date_from: `-${COUNT_DAYS}d` },
    interval: 'day',
    trendsFilter: { display: 'BoldNumber' },
  };
}

/** The number a BoldNumber trend answers. */
export const totalOf = (answer: { results?: { aggregated_value?: number; count?: number }[] }): number =>
  answer.results?.[0]?.aggregated_value ?? answer.results?.[0]?.count ?? 0;
