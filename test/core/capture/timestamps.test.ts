import { describe, expect, it } from 'vitest';
import { eventTimestampUs, parseTimestampUs } from '../../../src/core/capture/timestamps.js';

const us = (iso: string): number => Date.parse(iso) * 1000;
const NOW = us('2024-05-01T12:00:00.000Z');
const at = (raw: Record<string, unknown>, sentAt?: unknown): number => eventTimestampUs(raw, { nowUs: NOW, sentAt });

describe('eventTimestampUs: PostHog timestamp rules', () => {
  it('timestamp + envelope sent_at: now + (timestamp - sent_at), correcting client clock skew', () => {
    // Client clock 10 s ahead: the event happened 1 h before it was sent.
    expect(at({ timestamp: '2024-05-01T11:00:10Z' }, '2024-05-01T12:00:10Z')).toBe(us('2024-05-01T11:00:00Z'));
    // Client clock 10 s behind.
    expect(at({ timestamp: '2024-05-01T10:59:50Z' }, '2024-05-01T11:59:50Z')).toBe(us('2024-05-01T11:00:00Z'));
  });

  it('a per-event sent_at overrides the envelope one', () => {
    const raw = { timestamp: '2024-05-01T11:00:00Z', sent_at: '2024-05-01T11:30:00Z' };
    expect(at(raw, '2024-05-01T11:00:00Z')).toBe(NOW - 30 * 60 * 1_000_000);
  });

  it('sent_at as a number is the `_` query parameter in ms; values before 2021 (seconds) are ignored', () => {
    const sentMs = Date.parse('2024-05-01T12:00:05Z');
    expect(at({ timestamp: '2024-05-01T12:00:04Z' }, sentMs)).toBe(NOW - 1_000_000);
    expect(at({ timestamp: '2024-05-01T12:00:04Z' }, sentMs / 1000)).toBe(us('2024-05-01T12:00:04Z'));
  });

  it('properties.$ignore_sent_at === true keeps the timestamp as sent; other truthy values do not', () => {
    const raw = { timestamp: '2020-01-01T00:00:00Z', properties: { $ignore_sent_at: true } };
    expect(at(raw, '2024-05-01T12:00:00Z')).toBe(us('2020-01-01T00:00:00Z'));
    const notBool = { timestamp: '2024-05-01T11:00:00Z', properties: { $ignore_sent_at: 'true' } };
    expect(at(notBool, '2024-05-01T11:30:00Z')).toBe(NOW - 30 * 60 * 1_000_000);
  });

  it('timestamp alone is used as given, in any zone; no zone means UTC', () => {
    expect(at({ timestamp: '2024-05-01T10:00:00Z' })).toBe(us('2024-05-01T10:00:00Z'));
    expect(at({ timestamp: '2024-05-01T10:00:00' })).toBe(us('2024-05-01T10:00:00Z'));
    expect(at({ timestamp: '2024-05-01 10:00:00' })).toBe(us('2024-05-01T10:00:00Z'));
    expect(at({ timestamp: '2024-05-01T12:00:00+02:00' })).toBe(us('2024-05-01T10:00:00Z'));
    expect(at({ timestamp: '2024-05-01T12:00:00+02' })).toBe(us('2024-05-01T10:00:00Z'));
    expect(at({ timestamp: '2024-05-01T04:30:00-0530' })).toBe(us('2024-05-01T10:00:00Z'));
  });

  it('keeps microsecond precision, and drops digits beyond it', () => {
    expect(at({ timestamp: '2024-05-01T10:00:00.123456Z' })).toBe(us('2024-05-01T10:00:00.123Z') + 456);
    expect(at({ timestamp: '2024-05-01T10:00:00.123456789Z' })).toBe(us('2024-05-01T10:00:00.123Z') + 456);
    expect(at({ timestamp: '2024-05-01T10:00:00.5Z' })).toBe(us('2024-05-01T10:00:00.500Z'));
    // Skew correction keeps microseconds on both sides.
    expect(at({ timestamp: '2024-05-01T11:59:59.000001Z' }, '2024-05-01T12:00:00.000002Z')).toBe(NOW - 1_000_001);
  });

  it('offset (ms) without timestamp: now - offset; a timestamp wins over an offset', () => {
    expect(at({ offset: 1500 })).toBe(NOW - 1_500_000);
    expect(at({ offset: 1500, timestamp: null })).toBe(NOW - 1_500_000);
    expect(at({ offset: 1500, timestamp: '2024-05-01T10:00:00Z' })).toBe(us('2024-05-01T10:00:00Z'));
    expect(at({ offset: '1500' })).toBe(NOW);
  });

  it('nothing (or only sent_at) gives now', () => {
    expect(at({})).toBe(NOW);
    expect(at({}, '2024-05-01T11:00:00Z')).toBe(NOW);
  });

  it('more than 23 hours in the future gives now; 22 hours is kept', () => {
    expect(at({ timestamp: '2024-05-02T11:00:01Z' })).toBe(NOW);
    expect(at({ timestamp: '2024-05-02T10:00:00Z' })).toBe(us('2024-05-02T10:00:00Z'));
    expect(at({ offset: -24 * 3600 * 1000 })).toBe(NOW);
  });

  it('an unparseable timestamp gives now (even with an offset); an unparseable sent_at is ignored', () => {
    for (const timestamp of ['yesterday', '2024-02-30T00:00:00Z', '2024-13-01', '2024-05-01T25:00:00Z', {}, true]) {
      expect(at({ timestamp })).toBe(NOW);
    }
    expect(at({ timestamp: 'nope', offset: 1000 })).toBe(NOW);
    expect(at({ timestamp: '2024-05-01T10:00:00Z' }, 'garbage')).toBe(us('2024-05-01T10:00:00Z'));
  });

  it('times before the epoch become the epoch, never a date the store would wrap', () => {
    expect(at({ offset: 1e15 })).toBe(0);
    expect(at({ timestamp: '0001-01-01T00:00:00Z' })).toBe(0);
    expect(at({ timestamp: '1969-12-31T23:59:59.999999Z' })).toBe(0);
    expect(at({ timestamp: -1e20 })).toBe(0);
    expect(at({ timestamp: '1970-01-01T00:00:00.000001Z' })).toBe(1);
  });

  it('times far ahead become now (the 23-hour rule), whatever their size', () => {
    expect(at({ timestamp: '9999-12-31T23:59:59Z' })).toBe(NOW);
    expect(at({ timestamp: 1e20 })).toBe(NOW);
    expect(at({ timestamp: Number.MAX_VALUE })).toBe(NOW);
  });
});

describe('parseTimestampUs', () => {
  it('reads the forms clients send', () => {
    expect(parseTimestampUs('2024-05-01')).toBe(us('2024-05-01T00:00:00Z'));
    expect(parseTimestampUs('1714557600')).toBe(us('2024-05-01T10:00:00Z'));
    expect(parseTimestampUs('1714557600123')).toBe(us('2024-05-01T10:00:00.123Z'));
    expect(parseTimestampUs('1714557600123456')).toBe(us('2024-05-01T10:00:00.123Z') + 456);
    expect(parseTimestampUs(1714557600123)).toBe(us('2024-05-01T10:00:00.123Z'));
    expect(parseTimestampUs('Wed, 01 May 2024 10:00:00 GMT')).toBe(us('2024-05-01T10:00:00Z'));
    expect(parseTimestampUs('2024-05-01T10:00:00z')).toBe(us('2024-05-01T10:00:00Z'));
  });

  it('does not map years 0-99 to the 1900s (Date.UTC does)', () => {
    const date = new Date(0);
    date.setUTCFullYear(50, 0, 1);
    expect(parseTimestampUs('0050-01-01T00:00:00Z')).toBe(date.getTime() * 1000);
  });

  it('refuses what is not a date, including zone-less free text Date.parse would read in local time', () => {
    for (const value of ['', '2024', '12345', 'May 1 2024 10:00', '2024-05-01T10:00:00+25:00', null, undefined, NaN]) {
      expect(parseTimestampUs(value)).toBeUndefined();
    }
  });
});
