// Request and response schemas of the Annotations API (PostHog's AnnotationSerializer).
import { Type } from 'typebox';
import { AnyJson, Nullable } from './common.js';
import { UserBasic } from './identity.js';

/**
 * The writable fields; anything else (read-only fields, `team`) is dropped. Values are checked in
 * core/annotations/validate.ts, which gives DRF's messages.
 */
export const AnnotationWriteBody = Type.Object(
  {
    content: Type.Optional(AnyJson('the note shown on charts; at most 400 characters')),
    date_marker: Type.Optional(AnyJson('when it happened (ISO 8601); places it on charts')),
    creation_type: Type.Optional(AnyJson('USR (a person) or GIT (a bot or deploy)')),
    dashboard_item: Type.Optional(AnyJson("an insight id of the project (scope dashboard_item)")),
    dashboard_id: Type.Optional(AnyJson('a dashboard id of the project (scope dashboard)')),
    deleted: Type.Optional(AnyJson('true soft-deletes the annotation, false restores it')),
    scope: Type.Optional(AnyJson('dashboard_item (an insight), dashboard, project or organization')),
  },
  { additionalProperties: false },
);

export const Annotation = Type.Object({
  id: Type.Integer(),
  content: Nullable(Type.String()),
  date_marker: Nullable(Type.String()),
  creation_type: Type.String(),
  dashboard_item: Nullable(Type.Integer()),
  dashboard_id: Nullable(Type.Integer()),
  dashboard_name: Nullable(Type.String()),
  insight_short_id: Nullable(Type.String()),
  insight_name: Nullable(Type.String()),
  insight_derived_name: Nullable(Type.String()),
  created_by: Nullable(UserBasic),
  created_at: Nullable(Type.String()),
  updated_at: Type.String(),
  deleted: Type.Boolean(),
  scope: Type.String(),
});

export const AnnotationListQuery = Type.Object({
  limit: Type.Optional(Type.String({ description: 'page size (default 1000, as PostHog)' })),
  offset: Type.Optional(Type.String()),
  search: Type.Optional(Type.String({ description: 'words that must all be in the content' })),
  scope: Type.Optional(Type.String({ description: 'dashboard_item (or insight), dashboard, project, organization' })),
  date_from: Type.Optional(Type.String({ description: 'date_marker on or after (ISO 8601)' })),
  date_to: Type.Optional(Type.String({ description: 'date_marker on or before (ISO 8601)' })),
});
