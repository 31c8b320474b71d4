import { describe, expect, it } from 'vitest';
import { rememberJson, stringifyJson } from '../../src/core/raw-json.js';

describe('stringifyJson', () => {
  it('writes remembered values as their remembered text, everything else as JSON.stringify does', () => {
    const result = rememberJson([{ a: 1 }], '[{"a":1}]');
    const body = { name: 'x "quoted"', result, nested: { same: result }, other: [1, null, 'y'] };
    expect(JSON.parse(stringifyJson(body))).toEqual(JSON.parse(JSON.stringify(body)));
    // The remembered text is what is written, not a fresh serialisation.
    const marked = rememberJson({ v: 1 }, '{"v":1,"from":"memory"}');
    expect(JSON.parse(stringifyJson({ marked }))).toEqual({ marked: { v: 1, from: 'memory' } });
  });

  it('leaves text that merely looks like a placeholder alone', () => {
    const body = { text: '\u0001raw-0000000000000000-0', result: rememberJson([1], '[1]') };
    expect(JSON.parse(stringifyJson(body))).toEqual({ text: body.text, result: [1] });
  });
});
