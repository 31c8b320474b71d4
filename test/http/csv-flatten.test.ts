import { describe, expect, it } from 'vitest';
import { CsvLimitError, MAX_CSV_CELLS, renderFlattenedCsv } from '../../src/http/csv/flatten.js';
import { parseCsv, records } from '../helpers/csv.js';


function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe('renderFlattenedCsv', () => {
  const envelope = {
    count: 2,
    next: null,
    previous: null,
    results: [
      {
        id: 1,
        name: 'Signups, weekly',
        filters: { insight: 'TRENDS', events: [{ id: '$pageview' }] },
        tags: ['growth', 'q2'],
        favorited: false,
        description: 'Say "hi"\nto the team',
      },
      { id: 2, name: 'Plain', filters: {}, tags: [], favorited: true, description: null },
    ],
  };

  it('renders a paginated envelope as a single row with sorted, dotted columns', () => {
    const csv = renderFlattenedCsv(envelope);
    const [header, ...rows] = parseCsv(csv);
    expect(header).toEqual([
      'count',
      'next',
      'previous',
      'results.0.description',
      'results.0.favorited',
      'results.0.filters.events.0.id',
      'results.0.filters.insight',
      'results.0.id',
      'results.0.name',
      'results.0.tags.0',
      'results.0.tags.1',
      // results.1.filters and results.1.tags are empty, so they make no column
      'results.1.description',
      'results.1.favorited',
      'results.1.id',
      'results.1.name',
    ]);
    expect(rows).toEqual([
      ['2', '', '', 'Say "hi"\nto the team', 'False', '$pageview', 'TRENDS', '1', 'Signups, weekly', 'growth', 'q2', '', 'True', '2', 'Plain'],
    ]);
  });

  it('quotes cells with commas, quotes and line breaks as Python does, and nothing else', () => {
    const csv = renderFlattenedCsv({ a: 'x,y', b: 'say "hi"', c: 'one\ntwo', d: 'cr\rhere', e: ' padded ', f: "it's" });
    expect(csv).toBe('a,b,c,d,e,f\r\n"x,y","say ""hi""","one\ntwo","cr\rhere", padded ,it\'s\r\n');
  });

  it('renders a top-level list as one row per element, empty where an element lacks a column', () => {
    const csv = renderFlattenedCsv([{ id: 1, props: { plan: 'pro' } }, { id: 2, email: 'b@example.com' }, null]);
    // a scalar element (here null) is a value under the empty column name, as in the library
    expect(parseCsv(csv)[0]).toEqual(['', 'email', 'id', 'props.plan']);
    expect(records(csv)).toEqual([
      { '': '', email: '', id: '1', 'props.plan': 'pro' },
      { '': '', email: 'b@example.com', id: '2', 'props.plan': '' },
      { '': '', email: '', id: '', 'props.plan': '' },
    ]);
  });

  it('sorts the header by code point, like Python: capitals first, "10" before "2"', () => {
    const csv = renderFlattenedCsv({ b: 1, B: 2, a: 3, list: Array.from({ length: 11 }, (_, i) => i) });
    expect(parseCsv(csv)[0]).toEqual(['B', 'a', 'b', 'list.0', 'list.1', 'list.10', ...'23456789'.split('').map((n) => `list.${n}`)]);
  });

  it('prints null as an empty cell, booleans as Python does and numbers as JS does', () => {
    const csv = renderFlattenedCsv({ none: null, yes: true, no: false, int: 12, float: 1.5, negative: -3 });
    expect(records(csv)).toEqual([{ float: '1.5', int: '12', negative: '-3', no: 'False', none: '', yes: 'True' }]);
  });

  it('writes text a spreadsheet would run as a formula with a leading quote, numbers as they are', () => {
    const csv = renderFlattenedCsv({ negative: -3, exponent: -1.5e-7, text: '-1+1', at: '@SUM(A1)', tab: '\t=1', '=x': '=1+1' });
    expect(records(csv)).toEqual([{ at: "'@SUM(A1)", "'=x": "'=1+1", exponent: '-1.5e-7', negative: '-3', tab: "'\t=1", text: "'-1+1" }]);
  });

  it('renders what the JSON response would hold: dates as strings, undefined keys dropped', () => {
    const csv = renderFlattenedCsv({ at: new Date('2024-05-01T00:00:00Z'), gone: undefined, list: [undefined] });
    expect(records(csv)).toEqual([{ at: '2024-05-01T00:00:00.000Z', 'list.0': '' }]);
  });

  it('names columns from empty keys the way the library does', () => {
    const csv = renderFlattenedCsv({ a: { '': 1 }, b: { '': { c: 2 } } });
    expect(parseCsv(csv)).toEqual([['a', 'b..c'], ['1', '2']]);
  });

  it('keeps the later value when two paths flatten to the same column, as dict.update does', () => {
    expect(parseCsv(renderFlattenedCsv({ 'a.b': 1, a: { b: 2 } }))).toEqual([['a.b'], ['2']]);
  });

  it('renders nothing for null or an empty list, and empty records for an empty object', () => {
    expect(renderFlattenedCsv(null)).toBe('');
    expect(renderFlattenedCsv(undefined)).toBe('');
    expect(renderFlattenedCsv([])).toBe('');
    expect(renderFlattenedCsv({})).toBe('\r\n\r\n');
  });

  it('renders a bare scalar under an empty column name, quoted so the line is not blank', () => {
    expect(renderFlattenedCsv('ok')).toBe('""\r\nok\r\n');
    expect(parseCsv(renderFlattenedCsv([1, null]))).toEqual([[''], ['1'], ['']]);
  });

  it('accepts 64 levels of nesting and refuses 65', () => {
    expect(records(renderFlattenedCsv(nested(64)))).toEqual([{ [Array(64).fill('a').join('.')]: '1' }]);
    expect(() => renderFlattenedCsv(nested(65))).toThrow(CsvLimitError);
    expect(() => renderFlattenedCsv(nested(65))).toThrow(/nested more than 64 levels/);
    // inside a top-level list the list itself is the first level
    expect(() => renderFlattenedCsv([nested(63)])).not.toThrow();
    expect(() => renderFlattenedCsv([nested(64)])).toThrow(CsvLimitError);
  });

  it('refuses very deep or cyclic values without overflowing the stack', () => {
    expect(() => renderFlattenedCsv(nested(200_000))).toThrow(CsvLimitError);
    const cyclic: Record<string, unknown> = { id: 1 };
    cyclic.self = cyclic;
    expect(() => renderFlattenedCsv(cyclic)).toThrow(CsvLimitError);
  });

  it('refuses more than 100,000 cells, counting the empty cells of a sparse table', () => {
    const wide = { results: Array.from({ length: MAX_CSV_CELLS }, (_, i) => i) };
    expect(parseCsv(renderFlattenedCsv(wide))[1]).toHaveLength(MAX_CSV_CELLS);
    wide.results.push(0);
    expect(() => renderFlattenedCsv(wide)).toThrow(/more than 100000 cells/);
    // 1,000 rows that each name a different column: 1,000 values but a million cells
    const sparse = Array.from({ length: 1000 }, (_, i) => ({ [`k${i}`]: i }));
    expect(() => renderFlattenedCsv(sparse)).toThrow(CsvLimitError);
  });
});
