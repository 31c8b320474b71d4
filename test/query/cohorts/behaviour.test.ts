// Who a cohort holds, for PostHog's cohort-query cases (ee/clickhouse/queries/test/test_cohort_query.py:
// same persons, events relative to now, same expected members), each cohort created through the API
// over events captured through /batch/ and read back through GET /cohorts/:id/persons/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys, type JourneyEvent } from '../../helpers/journeys.js';

const ago = (days: number, hours = 0) => new Date(Date.now() - days * 86_400_000 - hours * 3_600_000).toISOString();
const behaviour = (key: string, value: string, extra: Record<string, unknown>) => ({ type: 'behavioral', key, value, event_type: 'events', ...extra });
const within = (n: number, interval = 'day') => ({ time_value: n, time_interval: interval });
const and = (...values: unknown[]) => ({ type: 'AND', values });
const or = (...values: unknown[]) => ({ type: 'OR', values });
const person = (key: string, value: unknown) => ({ type: 'person', key, value, operator: 'exact' });

let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(() => t.close());

/** A project of its own with these journeys; the members of a cohort with these criteria. */
async function members(stories: Record<string, JourneyEvent[]>, criteria: Record<string, unknown>, extraCohorts: (who: Credentials) => Promise<Record<string, unknown>> = async () => ({})): Promise<string[]> {
  const who = await t.bootstrap(`cohort-case-${Math.random().toString(36).slice(2)}@example.com`);
  await journeys(t, who, stories);
  const filters = { properties: { ...criteria, ...(await extraCohorts(who)) } };
  const created = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/cohorts/`, payload: { name: 'case', filters } });
  expect(created.statusCode, created.body).toBe(201);
  const res = await t.request(who.key, { method: 'GET', url: `/api/projects/${who.projectId}/cohorts/${created.json().id}/persons/` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().results as { distinct_ids: string[] }[]).map((p) => p.distinct_ids[0]!).sort();
}

describe("PostHog's behavioural cohort cases", () => {
  it('test_performed_event: with explicit_datetime -1w', async () => {
    expect(await members({ p1: [ev('$pageview', ago(2))], p2: [ev('$pageview', ago(9))] },
      and(behaviour('$pageview', 'performed_event', { explicit_datetime: '-1w' })))).toEqual(['p1']);
  });

  it('test_performed_event_with_event_filters_and_explicit_date', async () => {
    const filtered = { $filter_prop: 'something' };
    expect(await members({
      p1: [ev('$pageview', ago(2), filtered)],
      p2: [ev('$pageview', ago(2)), ev('$pageview', ago(5), filtered)],
    }, and(behaviour('$pageview', 'performed_event', { explicit_datetime: ago(3), event_filters: [{ key: '$filter_prop', value: 'something', operator: 'exact', type: 'event' }] })))).toEqual(['p1']);
  });

  it('test_performed_event_multiple: at least once in a week', async () => {
    expect(await members({ p1: [ev('$pageview', ago(2)), ev('$pageview', ago(4))], p2: [ev('$pageview', ago(9))] },
      and(behaviour('$pageview', 'performed_event_multiple', { operator: 'gte', operator_value: 1, ...within(1, 'week') })))).toEqual(['p1']);
  });

  it('test_performed_event_lte_1_times: persons without the event are not counted', async () => {
    expect(await members({
      p1: [ev('$other', ago(0, 1))],
      p2: [ev('$pageview', ago(0, 9))],
      p3: [ev('$pageview', ago(0, 9)), ev('$pageview', ago(0, 8))],
    }, and(behaviour('$pageview', 'performed_event_multiple', { operator: 'lte', operator_value: 1, ...within(1, 'week') })))).toEqual(['p2']);
  });

  it('test_can_handle_many_performed_multiple_filters: exactly once OR exactly twice', async () => {
    expect(await members({
      p1: [ev('$pageview', ago(1))],
      p2: [ev('$pageview', ago(1)), ev('$pageview', ago(2))],
      p3: [ev('$pageview', ago(1)), ev('$pageview', ago(2)), ev('$pageview', ago(3))],
    }, or(
      behaviour('$pageview', 'performed_event_multiple', { operator: 'eq', operator_value: 1, ...within(1, 'week') }),
      behaviour('$pageview', 'performed_event_multiple', { operator: 'exact', operator_value: 2, ...within(1, 'week') }),
    ))).toEqual(['p1', 'p2']);
  });

  it('test_stopped_performing_event: in the last 2 weeks, not in the last week', async () => {
    expect(await members({ p1: [ev('$pageview', ago(10))], p2: [ev('$pageview', ago(3))] },
      and(behaviour('$pageview', 'stopped_performing_event', { ...within(2, 'week'), seq_time_value: 1, seq_time_interval: 'week' })))).toEqual(['p1']);
  });

  it('test_restarted_performing_event: back in the last 2 days after a gap of the week before', async () => {
    expect(await members({
      p1: [ev('$pageview', ago(20)), ev('$pageview', ago(1))],
      p2: [ev('$pageview', ago(20)), ev('$pageview', ago(5)), ev('$pageview', ago(1))],
      p3: [ev('$pageview', ago(1))],
    }, and(behaviour('$pageview', 'restarted_performing_event', { ...within(1, 'week'), seq_time_value: 2, seq_time_interval: 'day' })))).toEqual(['p1']);
  });

  it('test_performed_event_first_time: first ever in the last week', async () => {
    expect(await members({ p1: [ev('$pageview', ago(20)), ev('$pageview', ago(4))], p2: [ev('$pageview', ago(4))] },
      and(behaviour('$pageview', 'performed_event_first_time', within(1, 'week'))))).toEqual(['p2']);
  });

  it('test_negation_dynamic_time_bound_with_performed_event: did one, not the other recently', async () => {
    expect(await members({
      p1: [ev('$new_view', ago(1)), ev('$pageview', ago(1))],
      p2: [ev('$pageview', ago(1))],
      p3: [ev('$new_view', ago(1)), ev('$pageview', ago(35))],
      p4: [ev('$new_view', ago(1))],
    }, and(behaviour('$new_view', 'performed_event', within(1, 'week')), { ...behaviour('$pageview', 'performed_event', within(2, 'week')), negation: true }))).toEqual(['p3', 'p4']);
  });

  it('test_person_props_only: nested OR and AND of person properties', async () => {
    const setting = (props: Record<string, unknown>) => [ev('$pageview', ago(1), { $set: props })];
    expect(await members({
      p1: setting({ name: 'test1', email: 'test1' }),
      p2: setting({ name: 'test2', email: 'test2' }),
      p3: setting({ name: 'test3', email: 'test3' }),
      p4: setting({ name: 'test3', email: 'test4' }),
    }, or(or(person('email', 'test1'), person('email', 'test2')), and(person('name', 'test3'), person('email', 'test3'))))).toEqual(['p1', 'p2', 'p3']);
  });

  it('test_cohort_filter_with_extra: another cohort AND (or OR) an event', async () => {
    const stories = {
      p1: [ev('$other', ago(1), { $set: { name: 'test' } })],
      p2: [ev('$pageview', ago(1), { $set: { name: 'test' } })],
      p3: [ev('$pageview', ago(1), { $set: { name: 'other' } })],
    };
    const named = async (who: Credentials) => {
      const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/cohorts/`, payload: { name: 'named test', filters: { properties: and(person('name', 'test')) } } });
      return { values: [{ type: 'cohort', key: 'id', value: res.json().id }, behaviour('$pageview', 'performed_event', within(1, 'week'))] };
    };
    expect(await members(stories, { type: 'AND' }, named)).toEqual(['p2']);
    expect(await members(stories, { type: 'OR' }, named)).toEqual(['p1', 'p2', 'p3']);
  });
});
