// What capture does to a client's event before the store sees it: lone surrogates repaired in keys
// and values at any depth, well-formed events passed through untouched, depth bounded.
import { describe, expect, it } from 'vitest';
import { MAX_EVENT_DEPTH, storableValue } from '../../../src/core/capture/storable.js';
import { failure, invalidPayload } from '../../helpers/api-error.js';

describe('storableValue', () => {
  it('returns the very same object when nothing needs repair (no copy on the hot path)', () => {
    const event = JSON.parse('{"event":"e","properties":{"a":[1,{"b":"😀"}],"c":null}}');
    expect(storableValue(event)).toBe(event);
  });

  it('repairs lone surrogates in keys and values at every depth, keeping pairs and order', () => {
    const event = JSON.parse('{"e\\ud800":"x\\udc00y","ok":"😀","deep":[{"k\\udbff":["\\ud83d"]}]}');
    expect(storableValue(event)).toEqual({ 'e\ufffd': 'x\ufffdy', ok: '😀', deep: [{ 'k\ufffd': ['\ufffd'] }] });
    expect(Object.keys(storableValue(event) as object)).toEqual(['e\ufffd', 'ok', 'deep']);
  });

  it('keeps a "__proto__" key as data when it copies', () => {
    const event = JSON.parse('{"__proto__":{"polluted":true},"bad":"\\ud800"}');
    const repaired = storableValue(event) as Record<string, unknown>;
    expect(Object.getPrototypeOf(repaired)).toBe(Object.prototype);
    expect(Object.keys(repaired)).toEqual(['__proto__', 'bad']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it(`refuses nesting deeper than ${MAX_EVENT_DEPTH} levels, and allows exactly that many`, () => {
    const nested = (levels: number) => JSON.parse(`${'['.repeat(levels)}1${']'.repeat(levels)}`);
    expect(() => storableValue(nested(MAX_EVENT_DEPTH))).not.toThrow();
    expect(failure(() => storableValue(nested(MAX_EVENT_DEPTH + 1)))).toEqual(
      invalidPayload(`Invalid payload: an event nests objects or arrays more than ${MAX_EVENT_DEPTH} levels deep.`),
    );
  });
});
