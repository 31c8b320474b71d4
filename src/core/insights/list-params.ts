// The insight list's query parameters (PostHog's InsightViewSet._filter_request), parsed.
import { ValidationError } from '../../errors.js';
import { INSIGHT_ORDER_FIELDS, type InsightListFilter, type InsightOrder, type InsightOrderField } from '../../storage/meta/repositories/insights.js';

const TRUTHY = new Set(['true', '1', 'yes', 'on']);

function idList(raw: string, attr: string): number[] {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ValidationError('Expected a JSON list of ids, e.g. [1,2].', attr);
  }
  const list = Array.isArray(value) ? value : [value];
  if (list.length > 1000 || !list.every((v) => Number.isSafeInteger(v))) throw new ValidationError('Expected a JSON list of ids, e.g. [1,2].', attr);
  return list as number[];
}

function stringList(raw: string, attr: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return [raw];
  }
  const list = Array.isArray(value) ? value : [value];
  if (list.length > 1000 || !list.every((v) => typeof v === 'string')) throw new ValidationError('Expected a JSON list of strings.', attr);
  return list as string[];
}

export interface InsightListParams {
  filter: InsightListFilter;
  order: InsightOrder | null;
}

/** `userId` is the requester, for `?user=`. */
export function parseInsightListParams(query: Record<string, unknown>, userId: number | null): InsightListParams {
  // NUL never matches anything stored (and PostgreSQL refuses it in text), so it is dropped.
  const q = (key: string): string | undefined => (typeof query[key] === 'string' ? (query[key] as string).replace(/\0/g, '') : undefined);
  const filter: InsightListFilter = {};
  const shortId = q('short_id');
  if (shortId !== undefined) filter.shortId = shortId;
  const createdBy = q('created_by');
  if (createdBy !== undefined && createdBy !== '') filter.createdBy = idList(createdBy, 'created_by');
  if (q('user') !== undefined && userId !== null) filter.createdBy = [userId];
  if (q('favorited') !== undefined) filter.favorited = true;
  const saved = q('saved');
  if (saved !== undefined) filter.saved = TRUTHY.has(saved.toLowerCase());
  const search = q('search');
  if (search !== undefined) filter.search = search.slice(0, 400);
  const dashboards = q('dashboards');
  if (dashboards !== undefined && dashboards !== '') filter.dashboards = idList(dashboards, 'dashboards');
  const tags = q('tags');
  if (tags !== undefined && tags !== '') filter.tags = stringList(tags, 'tags').map((t) => t.trim().toLowerCase());

  let order: InsightOrder | null = null;
  const orderParam = q('order');
  if (orderParam !== undefined && orderParam !== '') {
    const descending = orderParam.startsWith('-');
    const field = descending ? orderParam.slice(1) : orderParam;
    if (!(INSIGHT_ORDER_FIELDS as readonly string[]).includes(field)) {
      throw new ValidationError(`order must be one of ${INSIGHT_ORDER_FIELDS.join(', ')}, optionally prefixed with -.`, 'order');
    }
    order = { field: field as InsightOrderField, descending };
  }
  return { filter, order };
}
