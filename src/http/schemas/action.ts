// Request and response schemas of the Actions API (PostHog's ActionSerializer).
import { Type } from 'typebox';
import { PROPERTY_OPERATORS, STEP_MATCHING, type StepMatching } from '../../core/actions/validate.js';
import { AnyJson, Nullable } from './common.js';
import { UserBasic } from './identity.js';

/**
 * The writable fields; anything else (read-only fields included) is dropped. Steps are checked
 * in core/actions/validate.ts, which gives DRF's messages with nested attrs such as
 * `steps__0__url_matching`.
 */
export const ActionWriteBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 400, description: 'required on create; unique among live actions of the project' })),
    description: Type.Optional(Type.String()),
    tags: Type.Optional(Type.Array(Type.String({ maxLength: 255 }), { maxItems: 1000 })),
    post_to_slack: Type.Optional(Type.Boolean()),
    slack_message_format: Type.Optional(Type.String({ maxLength: 1200 })),
    steps: Type.Optional(
      Type.Array(AnyJson('a step: {event, properties, selector, tag_name, text, text_matching, href, href_matching, url, url_matching}'), {
        maxItems: 1000,
      }),
    ),
    deleted: Type.Optional(Type.Boolean({ description: 'true soft-deletes the action, false restores it' })),
    pinned_at: Type.Optional(Nullable(Type.String({ description: 'any date-time pins the action (at the server time); null unpins' }))),
  },
  { additionalProperties: false },
);

// Unsafe<StepMatching>: a union mapped from the list keeps its schema but loses its literal types.
const Matching = Nullable(Type.Unsafe<StepMatching>(Type.Union(STEP_MATCHING.map((m) => Type.Literal(m)))));

export const ActionStep = Type.Object({
  event: Nullable(Type.String()),
  properties: Nullable(
    Type.Array(AnyJson(`a property filter {key, value, operator (${PROPERTY_OPERATORS.join(', ')}), type}`)),
  ),
  selector: Nullable(Type.String()),
  tag_name: Nullable(Type.String()),
  text: Nullable(Type.String()),
  text_matching: Matching,
  href: Nullable(Type.String()),
  href_matching: Matching,
  url: Nullable(Type.String()),
  url_matching: Matching,
});

export const Action = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  tags: Type.Array(Type.String()),
  post_to_slack: Type.Boolean(),
  slack_message_format: Type.String(),
  steps: Type.Array(ActionStep),
  created_at: Type.String({ format: 'date-time' }),
  created_by: Nullable(UserBasic),
  deleted: Type.Boolean(),
  is_calculating: Type.Boolean(),
  last_calculated_at: Nullable(Type.String({ format: 'date-time' })),
  team_id: Type.Integer(),
  is_action: Type.Boolean(),
  bytecode_error: Nullable(Type.String()),
  pinned_at: Nullable(Type.String({ format: 'date-time' })),
  creation_context: Nullable(Type.String()),
  user_access_level: Type.String({ description: 'manager (creator or organization admin) or editor' }),
});
