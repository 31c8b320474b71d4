// What a HogQLQuery's translation is given of its project and definitions, shared by the runner
// (which adds the property types it looks up) and HogQLMetadata (which never looks them up).
import { cohortMembers } from '../../cohorts/members.js';
import { cohortPeopleRows } from '../../cohorts/people-table.js';
import type { QueryContext } from '../../context.js';
import type { TranslateContext } from '../../hogql/translate/translate.js';
import type { HogQLQuery } from '../../nodes/schema.js';
import { hogqlFilterDate, hogqlFiltersExpr } from './filters.js';

export function hogqlTranslateContext(query: HogQLQuery, context: QueryContext): TranslateContext {
  return {
    timezone: context.project.timezone,
    weekStartDay: context.project.weekStartDay,
    values: query.values,
    filters: (target) => hogqlFiltersExpr(query, context, target),
    filterDate: (bound) => hogqlFilterDate(query, context, bound),
    cohortMembers: (id) => cohortMembers(id, context),
    cohortIdByName: (name) => context.cohortNames?.get(name),
    ...(context.cohortPeople ? { cohortPeople: () => cohortPeopleRows(context) } : {}),
    actions: context.actions,
    ...(context.hogql ? { hogql: context.hogql } : {}),
  };
}
