// toStartOfWeek(x) without a mode follows the project's week start, as PostHog's printer adds the
// team's mode (3 for Monday, 0 for Sunday); an explicit mode wins, and the other week functions keep
// ClickHouse's default. Through /query/: HogQL, a hogql breakdown (the runners' expression reader).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { hogqlRows } from '../../helpers/hogql.js';
import { ev, journeys } from '../../helpers/journeys.js';

let t: TestApp;
let monday: Credentials;
let sunday: Credentials;
let unset: Credentials;
// A Wednesday; its week starts on Monday 2024-01-01 or on Sunday 2023-12-31.
const WEDNESDAY = '2024-01-03T12:00:00Z';

async function project(email: string, weekStartDay: 0 | 1 | null): Promise<Credentials> {
  const who = await t.bootstrap(email);
  const res = await t.request(who.key, { method: 'PATCH', url: `/api/projects/${who.projectId}/`, payload: { week_start_day: weekStartDay } });
  expect(res.statusCode, res.body).toBe(200);
  await journeys(t, who, { alice: [ev('$pageview', WEDNESDAY), ev('$pageview', '2024-01-07T12:00:00Z')] });
  return who;
}

const rows = (who: Credentials, query: string) => hogqlRows(t, who, query);

beforeAll(async () => {
  t = await createTestApp('sqlite');
  monday = await project('week-monday@example.com', 1);
  sunday = await project('week-sunday@example.com', 0);
  unset = await project('week-unset@example.com', null);
});
afterAll(() => t.close());

describe('toStartOfWeek and the project week start', () => {
  it('without a mode: Monday for a Monday project, Sunday for a Sunday project (and when unset)', async () => {
    const query = "select toStartOfWeek(toDateTime('2024-01-03 12:00:00')), toStartOfWeek(toDate('2024-01-07'))";
    expect(await rows(monday, query)).toEqual([['2024-01-01', '2024-01-01']]);
    expect(await rows(sunday, query)).toEqual([['2023-12-31', '2024-01-07']]);
    expect(await rows(unset, query)).toEqual([['2023-12-31', '2024-01-07']]);
  });

  it('over the events timestamp, grouped by week', async () => {
    const query = 'select toStartOfWeek(timestamp) as week, count() from events group by week order by week';
    expect(await rows(monday, query)).toEqual([['2024-01-01', 2]]);
    expect(await rows(sunday, query)).toEqual([['2023-12-31', 1], ['2024-01-07', 1]]);
  });

  it('an explicit mode wins over the project', async () => {
    const query = "select toStartOfWeek(toDate('2024-01-03'), 0), toStartOfWeek(toDate('2024-01-03'), 1), toStartOfWeek(toDate('2024-01-03'), 3)";
    expect(await rows(monday, query)).toEqual([['2023-12-31', '2024-01-01', '2024-01-01']]);
    expect(await rows(sunday, query)).toEqual([['2023-12-31', '2024-01-01', '2024-01-01']]);
  });

  it('toWeek, toYearWeek and toLastDayOfWeek keep ClickHouse default mode 0 (PostHog adds the mode to toStartOfWeek only)', async () => {
    const query = "select toWeek(toDate('2024-01-07')), toYearWeek(toDate('2024-01-07')), toLastDayOfWeek(toDate('2024-01-03'))";
    const expected = [[1, 202401, '2024-01-06']];
    expect(await rows(monday, query)).toEqual(expected);
    expect(await rows(sunday, query)).toEqual(expected);
  });

  it('a hogql breakdown of a trend reads it too', async () => {
    const query = {
      kind: 'TrendsQuery',
      series: [{ kind: 'EventsNode', event: '$pageview' }],
      dateRange: { date_from: '2024-01-01', date_to: '2024-01-08' },
      breakdownFilter: { breakdown_type: 'hogql', breakdown: 'toString(toStartOfWeek(timestamp))' },
    };
    const breakdowns = async (who: Credentials) => {
      const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().results.map((r: { breakdown_value: string }) => r.breakdown_value).sort();
    };
    expect(await breakdowns(monday)).toEqual(['2024-01-01']);
    expect(await breakdowns(sunday)).toEqual(['2023-12-31', '2024-01-07']);
  });
});
