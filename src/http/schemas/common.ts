// Schema pieces shared by several routes.
import { Type, type Static, type TSchema } from 'typebox';

export const ErrorBody = Type.Object(
  {
    type: Type.String({ description: 'validation_error, invalid_request, authentication_error, throttled_error or server_error' }),
    code: Type.String(),
    detail: Type.String(),
    attr: Type.Union([Type.String(), Type.Null()]),
    extra: Type.Optional(Type.Object({}, { additionalProperties: true, description: "only where PostHog adds it: a HogQL query's hogql_metadata" })),
  },
  { $id: 'ErrorBody', description: "PostHog's error body" },
);

// Typed as the body they name, so a handler's answer is checked against its success schemas.
const ErrorBodyRef = () => Type.Unsafe<Static<typeof ErrorBody>>(Type.Ref('ErrorBody'));

export const errorResponses = {
  '4xx': ErrorBodyRef(),
  '5xx': ErrorBodyRef(),
} as const;

/** limit/offset arrive as strings; bad values fall back to defaults, as DRF's paginator does. */
export const LimitOffsetQuery = Type.Object({
  limit: Type.Optional(Type.String({ description: 'page size (default 100)' })),
  offset: Type.Optional(Type.String({ description: 'index of the first result (default 0)' })),
});

export const PageQuery = Type.Object({
  limit: Type.Optional(Type.String({ description: 'page size (default 10)' })),
  page: Type.Optional(Type.String({ description: '1-based page number' })),
});

export function Paginated<T extends TSchema>(item: T) {
  return Type.Object({
    count: Type.Integer(),
    next: Type.Union([Type.String(), Type.Null()]),
    previous: Type.Union([Type.String(), Type.Null()]),
    results: Type.Array(item),
  });
}

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** An answer with no body (documented as null): typed void, so `reply.send()` takes no payload. */
export const NoBody = () => Type.Unsafe<void>(Type.Null());

/** A structured (JSON) value of any shape. */
export const AnyJson = (description?: string) =>
  Type.Unsafe<unknown>(description ? { description } : {});

/** Any JSON object, kept whole (properties, a saved insight's free-form parts). */
export const AnyObject = Type.Object({}, { additionalProperties: true });
