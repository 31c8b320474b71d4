// Request and response schemas of the Cohorts API (PostHog's CohortSerializer). The criteria are
// checked in query/cohorts/read.ts, which gives PostHog's messages with the path of the bad field.
import { Type } from 'typebox';
import { AnyJson, Nullable } from './common.js';
import { UserBasic } from './identity.js';

/** Writable fields; types are loose because multipart uploads carry them as text (checked in core). */
export const CohortWriteBody = Type.Object(
  {
    name: Type.Optional(AnyJson('the cohort\'s name (up to 400 characters)')),
    description: Type.Optional(AnyJson('up to 1000 characters')),
    filters: Type.Optional(AnyJson('{"properties": {"type": "AND"|"OR", "values": [...]}}: person, behavioral and cohort conditions, nested')),
    groups: Type.Optional(AnyJson('the legacy criteria list (converted into filters)')),
    is_static: Type.Optional(AnyJson('true: a list of persons (CSV upload or _create_static_person_ids)')),
    deleted: Type.Optional(AnyJson('true soft-deletes the cohort, false restores it')),
    query: Type.Optional(AnyJson('not supported yet')),
    _create_static_person_ids: Type.Optional(AnyJson('person ids to put in a new static cohort')),
    csv: Type.Optional(AnyJson('multipart only: a CSV of distinct ids, person ids (header person_id) or emails (header email)')),
  },
  { additionalProperties: false },
);

export const Cohort = Type.Object({
  id: Type.Integer(),
  name: Nullable(Type.String()),
  description: Type.String(),
  groups: Type.Array(AnyJson()),
  deleted: Type.Boolean(),
  filters: AnyJson('the criteria: {"properties": group}'),
  query: Type.Null(),
  is_calculating: Type.Boolean(),
  created_by: Nullable(UserBasic),
  created_at: Type.String(),
  last_calculation: Nullable(Type.String()),
  errors_calculating: Type.Integer(),
  last_error_message: Nullable(Type.String()),
  count: Nullable(Type.Integer()),
  is_static: Type.Boolean(),
  cohort_type: Type.Null(),
  experiment_set: Type.Array(Type.Integer()),
});

export const CohortListQuery = Type.Object({
  limit: Type.Optional(Type.String({ description: 'page size (default 100)' })),
  offset: Type.Optional(Type.String()),
  search: Type.Optional(Type.String({ description: 'part of the name, any case' })),
  type: Type.Optional(Type.String({ description: 'static or dynamic' })),
  created_by_id: Type.Optional(Type.String()),
});

export const Success = Type.Object({ success: Type.Boolean() });
