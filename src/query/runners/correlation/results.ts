// Candidate counts -> PostHog's correlation answer: odds ratios with a prior of one, candidates
// below the minimum support left out, the top 10 that go with converting (highest first), then
// the top 10 that go with dropping off (lowest first).
import type { FunnelCorrelationQuery } from '../../nodes/schema.js';
import { chainToElements } from '../../elements-chain.js';
import { AUTOCAPTURE_PREFIX, AUTOCAPTURE_SEPARATOR } from './sql.js';

export interface CandidateRow {
  candidate: string;
  success_count: number | string;
  failure_count: number | string;
}

export interface CorrelationItem {
  event: { event: string; properties: Record<string, unknown>; elements: unknown[] };
  success_count: number;
  failure_count: number;
  odds_ratio: number;
  correlation_type: 'success' | 'failure';
}

export interface CorrelationResult {
  events: CorrelationItem[];
  skewed: boolean;
}

const TOP = 10;
/** PostHog's minimum support: a candidate touching fewer actors than this says nothing. */
const MIN_SUPPORT = 25;
const MIN_SUPPORT_SHARE = 0.02;
const SKEW = 10;

/** The item's `event` object: autocapture candidates carry their event type and parsed elements. */
function serialized(name: string): CorrelationItem['event'] {
  if (!name.startsWith(AUTOCAPTURE_PREFIX)) return { event: name, properties: {}, elements: [] };
  const rest = name.slice(AUTOCAPTURE_PREFIX.length);
  const at = rest.indexOf(AUTOCAPTURE_SEPARATOR);
  const eventType = at < 0 ? '' : rest.slice(0, at);
  return { event: name, properties: { $event_type: eventType }, elements: chainToElements(at < 0 ? rest : rest.slice(at + AUTOCAPTURE_SEPARATOR.length)) };
}

/**
 * How many entrants a candidate must touch: min(25, 2 % of them); event properties seen by two
 * entrants or fewer are noise too (PostHog's rule for that type).
 */
export function minimumSupport(query: FunnelCorrelationQuery, converted: number, dropped: number): number {
  const minimum = Math.min(MIN_SUPPORT, MIN_SUPPORT_SHARE * (converted + dropped));
  return query.funnelCorrelationType === 'event_with_properties' ? Math.max(minimum, 3) : minimum;
}

export function correlationResult(query: FunnelCorrelationQuery, converted: number, dropped: number, rows: readonly CandidateRow[]): CorrelationResult {
  if (converted === 0 || dropped === 0) return { events: [], skewed: true };
  const minimum = minimumSupport(query, converted, dropped);
  const items = rows
    .map((row) => ({ name: row.candidate, s: Number(row.success_count), f: Number(row.failure_count) }))
    .filter(({ s, f }) => s + f >= minimum)
    .map(({ name, s, f }): CorrelationItem => {
      const odds = ((s + 1) * (dropped - f + 1)) / ((converted - s + 1) * (f + 1));
      return {
        event: serialized(name),
        success_count: s,
        failure_count: f,
        odds_ratio: odds,
        correlation_type: odds > 1 ? 'success' : 'failure',
      };
    });
  const byName = (a: CorrelationItem, b: CorrelationItem) => (a.event.event < b.event.event ? -1 : a.event.event > b.event.event ? 1 : 0);
  const success = items.filter((i) => i.correlation_type === 'success').sort((a, b) => b.odds_ratio - a.odds_ratio || byName(a, b)).slice(0, TOP);
  const failure = items.filter((i) => i.correlation_type === 'failure').sort((a, b) => a.odds_ratio - b.odds_ratio || byName(a, b)).slice(0, TOP);
  return { events: [...success, ...failure], skewed: converted / dropped > SKEW || dropped / converted > SKEW };
}
