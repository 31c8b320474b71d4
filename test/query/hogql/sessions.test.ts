// HogQL's `sessions` table and an event's `session`, over events captured through /batch/, with
// PostHog's own cases (posthog/hogql/database/schema/test/test_sessions_v1.py, _v2.py): bounce
// rates, counts, entry and exit URLs, attribution, and a project seeing only its own sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { hogqlRows } from '../../helpers/hogql.js';
import { ev, journeys } from '../../helpers/journeys.js';

let t: TestApp;
let who: Credentials;
let other: Credentials;

const rows = (query: string, credentials: Credentials = who) => hogqlRows(t, credentials, query);

const page = (at: string, session: string, n: number, extra: Record<string, unknown> = {}) =>
  ev('$pageview', at, { $session_id: session, $current_url: `https://example.com/${n}`, $pathname: `/${n}`, ...extra });

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('sessions@example.com');
  other = await t.bootstrap('sessions-other@example.com');
  await journeys(t, who, {
    d1: [page('2023-12-02T00:00:00Z', 's1a', 1, { utm_source: 'source1' }), page('2023-12-03T00:00:00Z', 's1a', 2), page('2023-12-12T00:00:00Z', 's1b', 3)],
    d2: [page('2023-12-11T00:00:00Z', 's2', 4, { utm_source: 'source2', $referring_domain: 'google.com' })],
    d3: [page('2023-12-11T00:00:00Z', 's3', 5), ev('$autocapture', '2023-12-11T00:00:00Z', { $session_id: 's3', $current_url: 'https://example.com/5', $external_click_url: 'https://example.com/out1' }),
      ev('$autocapture', '2023-12-11T00:00:01Z', { $session_id: 's3', $external_click_url: 'https://example.com/out2' })],
    d4: [page('2023-12-11T12:00:00Z', 's4', 6), ev('$pageleave', '2023-12-11T12:00:01Z', { $session_id: 's4', $current_url: 'https://example.com/6' })],
    d5: [page('2023-12-11T12:00:00Z', 's5', 7), ev('$pageleave', '2023-12-11T12:00:11Z', { $session_id: 's5', $current_url: 'https://example.com/7' })],
    d6: [ev('other_event', '2023-12-11T12:00:00Z', { $session_id: 's6' }), ev('$screen', '2023-12-11T12:00:02Z', { $session_id: 's6' })],
    nosession: [ev('$pageview', '2023-12-11T12:00:00Z', { $current_url: 'https://example.com/none' })],
  });
  await journeys(t, other, { intruder: [page('2023-12-11T00:00:00Z', 's2', 99)] });
});
afterAll(() => t.close());

describe('the sessions table', () => {
  it("gives PostHog's bounce rate: one page view under 10 seconds and no autocapture; NULL without page views", async () => {
    expect(await rows('select session_id, $is_bounce from sessions order by session_id')).toEqual([
      ['s1a', 0], ['s1b', 1], ['s2', 1], ['s3', 0], ['s4', 1], ['s5', 0], ['s6', null],
    ]);
  });

  it('counts, duration, entry and end URLs and paths, start and end in the project zone', async () => {
    expect(await rows("select $pageview_count, $autocapture_count, $screen_count, $session_duration, duration from sessions where id = 's3'")).toEqual([[1, 2, 0, 1, 1]]);
    expect(await rows("select $pageview_count, $autocapture_count, $screen_count from sessions where id = 's6'")).toEqual([[0, 0, 1]]);
    expect(await rows("select $entry_current_url, $end_current_url, $exit_current_url, $entry_pathname, $end_pathname, $start_timestamp, $end_timestamp, $session_duration from sessions where session_id = 's1a'"))
      .toEqual([['https://example.com/1', 'https://example.com/2', 'https://example.com/2', '/1', '/2', '2023-12-02T00:00:00Z', '2023-12-03T00:00:00Z', 86400]]);
    // The last event of s3 has no $current_url: the end URL is NULL, as in PostHog's v1/v2 tables.
    expect(await rows("select $end_current_url, $last_external_click_url, $urls from sessions where id = 's3'")).toEqual([[null, 'https://example.com/out2', ['https://example.com/5']]]);
    expect(await rows("select $entry_referring_domain, $entry_utm_source, distinct_id from sessions where id = 's2'")).toEqual([['google.com', 'source2', 'd2']]);
  });

  it("an event's session: attribution per event, NULL for events without a session", async () => {
    const perEvent = await rows("select distinct_id, session.$entry_utm_source from events where $session_id in ('s1a', 's2') and event = '$pageview' order by distinct_id, timestamp");
    expect(perEvent).toEqual([['d1', 'source1'], ['d1', 'source1'], ['d2', 'source2']]);
    expect(await rows("select count() from events where events.session.$entry_pathname = '/5'")).toEqual([[3]]);
    expect(await rows("select session.$session_duration, session.id from events where distinct_id = 'nosession'")).toEqual([[0, '']]);
  });

  it("never reads another project's events into a session", async () => {
    expect(await rows("select $entry_current_url, $pageview_count from sessions where id = 's2'", other)).toEqual([['https://example.com/99', 1]]);
    expect(await rows("select count() from sessions", other)).toEqual([[1]]);
  });
});
