// The cohort editor's model without a browser: every row kind it offers writes a leaf the API's
// reader (PostHog's CohortFilters rules) accepts; saved filters read back to the same JSON; what
// the editor cannot show field by field is kept as saved; the API's 400 attr finds its field.
import { describe, expect, it } from 'vitest';
import { readCohortFilters } from '../../src/query/cohorts/read.js';
import {
  ROW_KINDS, newCriterion, pathOfAttr, problemsOf, readCriteria, writeCriteria, type Criteria,
} from '../../web/src/components/cohorts/criteria.js';

const filled = (kind: Parameters<typeof newCriterion>[0]) => {
  const c = newCriterion(kind);
  if (kind === 'in_cohort' || kind === 'not_in_cohort') return { ...c, cohortId: '7' };
  if (kind === 'have_property' || kind === 'not_have_property') return { ...c, key: 'plan', values: ['pro'] };
  return { ...c, key: 'purchase' };
};

describe('cohort criteria model', () => {
  it('writes, for every row kind offered, a leaf the API accepts, with negation only on the "not" rows', () => {
    for (const { kinds } of ROW_KINDS) {
      for (const [kind] of kinds) {
        const criteria: Criteria = { type: 'OR', groups: [{ type: 'AND', criteria: [filled('have_property'), filled(kind)] }] };
        expect(problemsOf(criteria).size, kind).toBe(0);
        const filters = writeCriteria(criteria);
        expect(() => readCohortFilters(filters as never), kind).not.toThrow();
        const leaf = filters.properties.values[0] as { values: { negation: boolean }[] };
        expect(leaf.values[1]!.negation, kind).toBe(kind.startsWith('not_'));
      }
    }
  });

  it('reads saved filters back to the same JSON, a bare leaf as a group of its own', () => {
    const saved = {
      properties: {
        type: 'AND',
        values: [
          { type: 'OR', values: [
            { type: 'person', key: 'plan', operator: 'is_not', value: ['free', 'trial'], negation: false },
            { type: 'behavioral', value: 'performed_event_multiple', key: 12, event_type: 'actions', time_value: 2, time_interval: 'week', negation: false, operator: 'lte', operator_value: 3 },
          ] },
          { type: 'AND', values: [{ type: 'behavioral', value: 'stopped_performing_event', key: 'login', event_type: 'events', time_value: 7, time_interval: 'day', negation: false, seq_time_value: 30, seq_time_interval: 'day' }] },
        ],
      },
    };
    expect(writeCriteria(readCriteria(saved)!)).toEqual(saved);
    const bare = { properties: { type: 'OR', values: [{ type: 'cohort', key: 'id', value: 3, negation: true }] } };
    expect(writeCriteria(readCriteria(bare)!)).toEqual({ properties: { type: 'OR', values: [{ type: 'AND', values: bare.properties.values }] } });
  });

  it('keeps as saved what it cannot edit field by field, and refuses nesting deeper than two levels', () => {
    const explicit = { type: 'behavioral', value: 'performed_event', key: 'x', event_type: 'events', explicit_datetime: '-30d', negation: false };
    const withFilters = { type: 'behavioral', value: 'performed_event', key: 'x', event_type: 'events', time_value: 1, time_interval: 'day', event_filters: [{ type: 'event', key: 'a', value: 'b', operator: 'exact' }] };
    const saved = { properties: { type: 'OR', values: [{ type: 'AND', values: [explicit, withFilters] }] } };
    const read = readCriteria(saved)!;
    expect(read.groups[0]!.criteria.every((c) => c.raw)).toBe(true);
    expect(writeCriteria(read)).toEqual(saved);
    expect(readCriteria({ properties: { type: 'OR', values: [{ type: 'AND', values: [{ type: 'OR', values: [] }] }] } })).toBeNull();
  });

  it('refuses empty fields and PostHog\'s negation rule before anything is sent', () => {
    const problems = problemsOf({
      type: 'OR',
      groups: [
        { type: 'AND', criteria: [newCriterion('have_property'), { ...filled('performed_event_multiple'), count: '' }] },
        { type: 'OR', criteria: [filled('have_property'), filled('not_in_cohort')] },
        { type: 'AND', criteria: [filled('not_performed_event')] },
        { type: 'AND', criteria: [{ ...filled('stopped_performing_event'), timeValue: '0', seqTimeValue: 'x' }] },
      ],
    });
    expect(Object.fromEntries(problems)).toEqual({
      '0.0.key': 'Pick a person property.',
      '0.0.value': 'Give a value.',
      '0.1.operator_value': 'Give a whole number of times.',
      '1': 'Negation criteria can only be used when matching all criteria (AND), and must be accompanied by at least one positive matching criteria.',
      '2': 'Negation criteria can only be used when matching all criteria (AND), and must be accompanied by at least one positive matching criteria.',
      '3.0.time_value': 'Give a whole number of periods, 1 or more.',
      '3.0.seq_time_value': 'Give a whole number of periods, 1 or more.',
    });
  });

  it('finds the field an API 400 names', () => {
    expect(pathOfAttr('filters.properties.values[1].values[0].time_value')).toBe('1.0.time_value');
    expect(pathOfAttr('filters.properties.values[2].values[3]')).toBe('2.3.key');
    expect(pathOfAttr('filters.properties.values[0]')).toBe('0');
    expect(pathOfAttr('name')).toBeNull();
  });
});
