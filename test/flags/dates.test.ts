// PostHog's relative-date and time-zone cases, from the Rust service's
// rust/feature-flags/src/properties/relative_date.rs tests module (one `it` per Rust test): the
// instants is_date_* filters compare against.
import { describe, expect, it } from 'vitest';
import { parseDateText } from '../../src/core/flags/evaluation/dates.js';

const NOW = new Date('2020-01-01T12:01:20.134Z');
const at = (text: string, now = NOW, zone = 'UTC') => {
  const ms = parseDateText(text, zone, now);
  return ms === null ? null : new Date(ms).toISOString();
};
const expectAll = (cases: [string, string][], now = NOW) => {
  expect(cases.map(([text]) => at(text, now))).toEqual(cases.map(([, iso]) => new Date(iso).toISOString()));
};

describe('rust/feature-flags relative_date.rs', () => {
  for (const [text, valid] of [['-3d', true], ['3d', true], ['-3h', true], ['3h', true], ['-3w', true], ['3w', true], ['-3m', true], ['3m', true],
    ['-3y', true], ['3y', true], ['invalid', false], ['3x', false], ['100000d', false]] as const) {
    it(`test_parse_relative_date_validity(${text})`, () => expect(at(text) !== null).toBe(valid));
  }

  it('test_invalid_input', () => {
    for (const text of ['1', '1x', '1.2y', '1z', '1s', '123344000.134m', 'bazinga', '000bello', '000hello']) expect(at(text)).toBeNull();
    expect(at('000h')).not.toBeNull();
    expect(at('1000h')).not.toBeNull();
  });

  it('test_overflow', () => {
    expect(at('1000000h')).toBeNull();
    expect(at('100000000000000000y')).toBeNull();
  });

  it('test_hour_parsing', () => {
    expectAll([['1h', '2020-01-01T11:01:20.134Z'], ['2h', '2020-01-01T10:01:20.134Z'], ['24h', '2019-12-31T12:01:20.134Z'], ['30h', '2019-12-31T06:01:20.134Z'], ['48h', '2019-12-30T12:01:20.134Z']]);
    expect(at('24h')).toBe(at('1d'));
    expect(at('48h')).toBe(at('2d'));
  });

  it('test_day_parsing', () => {
    expectAll([['1d', '2019-12-31T12:01:20.134Z'], ['2d', '2019-12-30T12:01:20.134Z'], ['7d', '2019-12-25T12:01:20.134Z'], ['14d', '2019-12-18T12:01:20.134Z'], ['30d', '2019-12-02T12:01:20.134Z']]);
    expect(at('7d')).toBe(at('1w'));
  });

  it('test_week_parsing', () => {
    expectAll([['1w', '2019-12-25T12:01:20.134Z'], ['2w', '2019-12-18T12:01:20.134Z'], ['4w', '2019-12-04T12:01:20.134Z'], ['8w', '2019-11-06T12:01:20.134Z'], ['1m', '2019-12-01T12:01:20.134Z']]);
    expect(at('4w')).not.toBe(at('1m'));
  });

  it('test_month_parsing', () => {
    expectAll([['1m', '2019-12-01T12:01:20.134Z'], ['2m', '2019-11-01T12:01:20.134Z'], ['4m', '2019-09-01T12:01:20.134Z'], ['8m', '2019-05-01T12:01:20.134Z'], ['1y', '2019-01-01T12:01:20.134Z']]);
    expect(at('12m')).toBe(at('1y'));
    const april = new Date('2020-04-03T00:00:00Z');
    expectAll([['1m', '2020-03-03T00:00:00Z'], ['2m', '2020-02-03T00:00:00Z'], ['4m', '2019-12-03T00:00:00Z'], ['8m', '2019-08-03T00:00:00Z'], ['1y', '2019-04-03T00:00:00Z']], april);
    expect(at('12m', april)).toBe(at('1y', april));
  });

  it('test_year_parsing', () => {
    expectAll([['1y', '2019-01-01T12:01:20.134Z'], ['2y', '2018-01-01T12:01:20.134Z'], ['4y', '2016-01-01T12:01:20.134Z'], ['8y', '2012-01-01T12:01:20.134Z']]);
  });

  it('test_edge_cases', () => {
    expect(at('1m', new Date('2020-03-31T12:00:00Z'))).toBe('2020-02-29T12:00:00.000Z');
    expect(at('1m', new Date('2019-03-31T12:00:00Z'))).toBe('2019-02-28T12:00:00.000Z');
    expect(at('1y', new Date('2020-02-29T12:00:00Z'))).toBe('2019-02-28T12:00:00.000Z');
    for (const text of ['9999d', '9999h', '9999w', '9999m', '9999y']) expect(at(text, new Date('2020-01-01T12:00:00Z'))).not.toBeNull();
  });

  it('test_naive_to_utc_in_tz_pacific_offset', () => {
    expect(at('2024-06-03 02:00:00', NOW, 'America/Los_Angeles')).toBe('2024-06-03T09:00:00.000Z');
  });

  it('test_relative_date_naive_anchored_in_tz_matches_hogql', () => {
    const now = new Date('2024-06-10T09:00:00Z'); // 02:00 on the Pacific wall clock
    expect(at('-7d', now, 'America/Los_Angeles')).toBe('2024-06-03T09:00:00.000Z');
    expect(at('-7d', new Date('2024-06-10T02:00:00Z'), 'UTC')).toBe('2024-06-03T02:00:00.000Z');
  });

  it('test_naive_to_utc_in_tz_fall_back_picks_earliest', () => {
    expect(at('2024-11-03 01:30:00', NOW, 'America/Los_Angeles')).toBe('2024-11-03T08:30:00.000Z');
  });

  it('test_naive_to_utc_in_tz_spring_forward_gap_is_none', () => {
    expect(at('2024-03-10 02:30:00', NOW, 'America/Los_Angeles')).toBeNull();
  });
});

// posthog-node@4.0.0 test/feature-flags.spec.ts, describe "relative date parsing": the same cases as
// relative_date.rs above (invalid input, overflow, hours, days, weeks, years), plus these months.
describe('posthog-node@4.0.0 relative date parsing', () => {
  it('month parsing', () => {
    expectAll([['1m', '2019-12-01T12:01:20.134Z'], ['2m', '2019-11-01T12:01:20.134Z'], ['4m', '2019-09-01T12:01:20.134Z'], ['5m', '2019-08-01T12:01:20.134Z'],
      ['6m', '2019-07-01T12:01:20.134Z'], ['8m', '2019-05-01T12:01:20.134Z'], ['10m', '2019-03-01T12:01:20.134Z'], ['24m', '2018-01-01T12:01:20.134Z'], ['1y', '2019-01-01T12:01:20.134Z']]);
  });
});

