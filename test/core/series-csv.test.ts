import { describe, expect, it } from 'vitest';
import { seriesCsv } from '../../src/core/insights/series-csv.js';
import { readInsightQuery } from '../../src/query/runners/registry.js';
import { parseCsv } from '../helpers/csv.js';

const TREND = readInsightQuery({ kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: '$pageview' }] });
const FUNNEL = readInsightQuery({ kind: 'FunnelsQuery', series: [{ kind: 'EventsNode', event: 'a' }, { kind: 'EventsNode', event: 'b' }] });


const MAY = ['1-May-2024', '2-May-2024', '3-May-2024', '4-May-2024'];
const APRIL = ['27-Apr-2024', '28-Apr-2024', '29-Apr-2024', '30-Apr-2024'];
const DAYS = ['2024-05-01', '2024-05-02', '2024-05-03', '2024-05-04'];

function series(fields: Record<string, unknown>): Record<string, unknown> {
  return {
    label: '$pageview',
    action: { id: '$pageview', type: 'events', custom_name: null },
    count: 12,
    data: [0, 3, 4, 5],
    labels: MAY,
    days: DAYS,
    ...fields,
  };
}

function step(order: number, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    action_id: `event_${order}`,
    name: `event_${order}`,
    custom_name: null,
    order,
    count: 100 - order * 40,
    average_conversion_time: order === 0 ? null : 61.5 * order,
    median_conversion_time: order === 0 ? null : 30 * order,
    ...fields,
  };
}

describe('seriesCsv for trends', () => {
  it('writes one row per series, one column per date, named by breakdown and compare period', () => {
    const result = [
      series({ breakdown_value: 'Chrome', compare_label: 'current' }),
      series({ breakdown_value: 'Safari, iOS', compare_label: 'current', data: [1, 0, 2, 2], count: 5 }),
      series({ breakdown_value: 'Chrome', compare_label: 'previous', data: [2, 2, 1, 0], labels: APRIL, count: 5 }),
    ];
    expect(parseCsv(seriesCsv(result, TREND, { title: 'Pageviews by browser' }))).toEqual([
      ['Pageviews by browser'],
      ['series', ...MAY],
      ['$pageview - Chrome (current)', '0', '3', '4', '5'],
      ['$pageview - Safari, iOS (current)', '1', '0', '2', '2'],
      ['$pageview - Chrome (previous)', '2', '2', '1', '0'],
    ]);
  });

  it('prefers the action custom name, then the series custom name, then the label', () => {
    const result = [
      series({ action: { custom_name: 'Views' }, custom_name: 'ignored' }),
      series({ label: 'signup', custom_name: 'Sign-ups', data: [1, 1, 1, 1] }),
      series({ label: 'purchase', action: { custom_name: '' }, data: [0, 0, 0, 1] }),
    ];
    expect(parseCsv(seriesCsv(result, TREND, {})).map((row) => row[0])).toEqual(['series', 'Views', 'Sign-ups', 'purchase']);
  });

  it('joins a multi-property breakdown value with "::"', () => {
    const csv = seriesCsv([series({ breakdown_value: ['Chrome', 'US', null] })], TREND, { title: null });
    expect(parseCsv(csv)[1]![0]).toBe('$pageview - Chrome::US::');
  });

  it('quotes labels with commas, quotes and line breaks, and leaves null points empty', () => {
    const csv = seriesCsv([series({ label: 'clicked "Buy",\nthen left', data: [1, null, 2.5, -3] })], TREND, {});
    expect(csv).toBe('series,1-May-2024,2-May-2024,3-May-2024,4-May-2024\r\n"clicked ""Buy"",\nthen left",1,,2.5,-3\r\n');
  });

  it('widens the header to the longest series, borrowing labels it lacks from later series', () => {
    const result = [series({ data: [1, 2], labels: MAY.slice(0, 2) }), series({ label: 'signup', labels: APRIL })];
    expect(parseCsv(seriesCsv(result, TREND, {}))).toEqual([
      ['series', '1-May-2024', '2-May-2024', '29-Apr-2024', '30-Apr-2024'],
      ['$pageview', '1', '2', '', ''],
      ['signup', '0', '3', '4', '5'],
    ]);
  });

  it('writes one value per series for a total-value result', () => {
    const result = [
      { label: '$pageview', action: { custom_name: 'Views' }, aggregated_value: 7, breakdown_value: 'Chrome' },
      { label: '$pageview', action: { custom_name: 'Views' }, aggregated_value: 2.5, breakdown_value: 'Firefox' },
      { label: 'signup', aggregated_value: 0, data: [] },
    ];
    expect(parseCsv(seriesCsv(result, TREND, { title: 'Totals' }))).toEqual([
      ['Totals'],
      ['series', 'value'],
      ['Views - Chrome', '7'],
      ['Views - Firefox', '2.5'],
      ['signup', '0'],
    ]);
  });
});

describe('seriesCsv for funnels', () => {
  it('writes one row per step, numbered from 1, with conversion times', () => {
    const result = [step(0), step(1, { custom_name: 'Signed up' }), step(2)];
    expect(parseCsv(seriesCsv(result, FUNNEL, {}))).toEqual([
      ['step', 'name', 'count', 'average_conversion_time', 'median_conversion_time'],
      ['1', 'event_0', '100', '', ''],
      ['2', 'Signed up', '60', '61.5', '30'],
      ['3', 'event_2', '20', '123', '60'],
    ]);
  });

  it('adds a breakdown_value column when the funnel is broken down', () => {
    const result = [
      [step(0, { breakdown_value: ['Chrome'] }), step(1, { breakdown_value: ['Chrome'] })],
      [step(0, { breakdown_value: ['Safari', 'iOS'], count: 10 }), step(1, { breakdown_value: ['Safari', 'iOS'], count: 4 })],
    ];
    expect(parseCsv(seriesCsv(result, FUNNEL, { title: 'Signup funnel' }))).toEqual([
      ['Signup funnel'],
      ['step', 'breakdown_value', 'name', 'count', 'average_conversion_time', 'median_conversion_time'],
      ['1', 'Chrome', 'event_0', '100', '', ''],
      ['2', 'Chrome', 'event_1', '60', '61.5', '30'],
      ['1', 'Safari::iOS', 'event_0', '10', '', ''],
      ['2', 'Safari::iOS', 'event_1', '4', '61.5', '30'],
    ]);
  });
});

describe('seriesCsv for other results', () => {
  it('writes only the header for a result it does not recognise', () => {
    for (const result of [null, undefined, [], {}, 'text', [1, 2], [{ foo: 1 }], { results: [] }]) {
      for (const query of [TREND, FUNNEL, null]) expect(seriesCsv(result, query, {})).toBe('series\r\n');
    }
    // A funnel's steps read as the header alone when the insight is a trend, and the other way round.
    expect(seriesCsv([step(0)], TREND, {})).toBe('series\r\n');
    expect(seriesCsv([series({})], FUNNEL, {})).toBe('series\r\n');
    expect(seriesCsv(null, TREND, { title: 'Empty insight' })).toBe('Empty insight\r\nseries\r\n');
    expect(seriesCsv(null, TREND, { title: '' })).toBe('series\r\n');
  });
});

describe('seriesCsv against spreadsheet formula injection', () => {
  it("prefixes text cells that a spreadsheet would run as a formula with '", () => {
    const result = [
      series({ label: '=HYPERLINK("https://evil.example","open")', data: [-3, 1, 0, 2] }),
      series({ label: '@SUM(A1)', breakdown_value: '+44 20 7946 0000' }),
      series({ label: '-2+3' }),
      series({ label: '\tcmd' }),
      series({ label: '\rcmd' }),
      series({ label: 'safe = fine' }),
    ];
    const rows = parseCsv(seriesCsv(result, TREND, { title: '=1+1' }));
    expect(rows[0]).toEqual(["'=1+1"]);
    expect(rows.slice(2).map((row) => row[0])).toEqual([
      '\'=HYPERLINK("https://evil.example","open")',
      "'@SUM(A1) - +44 20 7946 0000",
      "'-2+3",
      "'\tcmd",
      "'\rcmd",
      'safe = fine',
    ]);
    // numbers are data, not formulas
    expect(rows[2]!.slice(1)).toEqual(['-3', '1', '0', '2']);
  });

  it('still quotes a prefixed cell that needs quoting', () => {
    const csv = seriesCsv([series({ label: '=A1,"x"' })], TREND, {});
    expect(csv.split('\r\n')[1]).toBe('"\'=A1,""x""",0,3,4,5');
  });
});
