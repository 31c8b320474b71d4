// The insight routes' serializer: answers hold what the response schema lists, in the order the
// handler built them, with remembered JSON (cached results) spliced in as its text.
import { describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { rememberJson } from '../../src/core/raw-json.js';
import { schemaSerializer } from '../../src/http/schema-serializer.js';
import { ErrorBody, Nullable } from '../../src/http/schemas/common.js';

const serializerOf = (schema: unknown, refs: Record<string, unknown> = {}) =>
  schemaSerializer(refs)({ schema, method: 'GET', url: '/', httpPart: 'body' } as never);

const Item = Type.Object({
  id: Type.Integer(),
  user: Nullable(Type.Object({ id: Type.Integer(), email: Type.String() })),
  result: Type.Unsafe<unknown>({}),
  note: Type.Optional(Type.String()),
  open: Type.Object({}, { additionalProperties: true }),
});

describe('schemaSerializer', () => {
  it('keeps the listed keys in the handler’s order and drops the others, nested ones too', () => {
    const text = serializerOf(Item)({ open: { any: 1 }, secret: 'x', id: 1, user: { email: 'a@b.c', id: 2, password: 'p' }, result: [1, { a: 2 }] });
    expect(text).toBe('{"open":{"any":1},"id":1,"user":{"email":"a@b.c","id":2},"result":[1,{"a":2}]}');
  });

  it('takes null for a nullable object, and leaves an optional key out', () => {
    expect(JSON.parse(serializerOf(Item)({ id: 1, user: null, result: null, open: {} }))).toEqual({ id: 1, user: null, result: null, open: {} });
  });

  it('refuses an answer that lacks a required key instead of sending a different one', () => {
    expect(() => serializerOf(Item)({ id: 1, result: null, open: {} })).toThrow(/lacks "user"/);
    expect(() => serializerOf(Type.Array(Item))([{ id: 1, user: null, open: {} }])).toThrow(/\$\[0\] lacks "result"/);
  });

  it('picks the first form of a union the value fits', () => {
    const Full = Type.Object({ id: Type.Integer(), result: Type.Unsafe<unknown>({}) });
    const Basic = Type.Object({ id: Type.Integer(), refreshing: Type.Boolean() });
    const serialize = serializerOf(Type.Array(Type.Union([Full, Basic])));
    expect(JSON.parse(serialize([{ id: 1, result: 5, refreshing: true }, { id: 2, refreshing: false, result: undefined }]))).toEqual([
      { id: 1, result: 5 },
      { id: 2, refreshing: false },
    ]);
  });

  it('splices remembered JSON in as its text', () => {
    const result = rememberJson([{ count: 1 }], '[{"count":1.0}]');
    expect(serializerOf(Item)({ id: 1, user: null, result, open: {} })).toBe('{"id":1,"user":null,"result":[{"count":1.0}],"open":{}}');
  });

  it('follows $ref to the shared schemas it is given (PostHog’s error body)', () => {
    const serialize = serializerOf(Type.Ref('ErrorBody'), { ErrorBody });
    expect(serialize({ type: 'validation_error', code: 'invalid', detail: 'd', attr: null, stray: 1 })).toBe('{"type":"validation_error","code":"invalid","detail":"d","attr":null}');
    // `extra` only where PostHog adds it (a HogQL query's hogql_metadata), kept whole.
    expect(serialize({ type: 'validation_error', code: 'c', detail: 'd', attr: null, extra: { hogql_metadata: { errors: [{ start: 1 }] } } }))
      .toBe('{"type":"validation_error","code":"c","detail":"d","attr":null,"extra":{"hogql_metadata":{"errors":[{"start":1}]}}}');
  });
});
