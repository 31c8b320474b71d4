// A person's funnel events, gathered and sorted as one integer each.
//
// groupArray of tuples goes through ClickHouse's generic (serialising) aggregate state and was
// half the run time of a 3-step funnel over 4.5M events; groupArray of one number is a flat
// column, and sorting numbers is cheaper than sorting tuples. So each event becomes
//   time (µs) | step mask | exclusion mask | 1
// high to low: sorting the numbers sorts by time, then mask, then exclusions, as the tuples
// sorted. The low "real event" bit is 1 on every event, so 0 is a neighbour no event equals.
//
// When the date range's width and the masks fit in 64 bits (a 30-day range needs 42 bits of
// time, leaving room for 10 steps with exclusions or 20 without), the time is stored relative
// to the range start in a UInt64: unpacking and the repeat filter are then cheap word operations.
// Otherwise a UInt128 (or a UInt256 past 36 steps with exclusions) holds the absolute time,
// shifted by 2^52 so pre-1970 timestamps stay positive and in order.
import { and, binary, call, constant, field, lambda, tuple } from '../../ast/build.js';
import type { Expr } from '../../ast/nodes.js';
import { el, num } from './sql.js';

type WideCast = 'toUInt64' | 'toUInt128' | 'toUInt256';

interface Layout {
  readonly cast: WideCast;
  /** Added to the µs timestamp before packing, subtracted after. */
  readonly timeOffset: number;
  readonly maskBits: number;
  readonly exclBits: number;
}

/** How the walk reads one event: its step mask, exclusion mask and whether it is a real event. */
export interface EventAccess {
  mask(event: Expr): Expr;
  excl(event: Expr): Expr;
  /** A neighbour standing in before the first and after the last event. */
  readonly sentinel: Expr;
  isReal(event: Expr): Expr;
  /** Whether two events (the second possibly the sentinel) share one timestamp. */
  sameInstant(event: Expr, other: Expr): Expr;
  /** The event with its exclusions left out and the tie flag set (ties.ts). */
  tied(event: Expr): Expr;
}

/** Events already unpacked into (ts Int64, mask UInt64, excl UInt64) tuples. */
// The sentinel's time lies before 1900, ClickHouse's earliest DateTime64: no real event has it.
const SENTINEL_TS = Number.MIN_SAFE_INTEGER;
export const TUPLE_ACCESS: EventAccess = {
  mask: (event) => el(event, 2),
  excl: (event) => el(event, 3),
  sentinel: tuple(call('toInt64', num(SENTINEL_TS)), call('toUInt64', num(0)), call('toUInt64', num(0))),
  isReal: (event) => binary('!=', el(event, 1), num(SENTINEL_TS)),
  sameInstant: (event, other) => binary('=', el(event, 1), el(other, 1)),
  tied: (event) => tuple(el(event, 1), el(event, 2), call('toUInt64', num(1))),
};

export interface PackedEvents {
  /** Aggregate expression: the group's events as packed numbers in time order. */
  readonly sorted: Expr;
  readonly access: EventAccess;
  /** Array of packed numbers -> Array(Tuple(ts Int64, mask UInt64, excl UInt64)). */
  unpackAll(packed: Expr): Expr;
}

export interface PackingInput {
  readonly stepCount: number;
  readonly withExclusions: boolean;
  /** The inclusive range every event lies in, in µs since the epoch. */
  readonly fromMicros: number;
  readonly toMicros: number;
}

const WIDE_TIME_OFFSET = 2 ** 52; // below 1900, ClickHouse's earliest DateTime64, and a safe JS integer

function layoutFor(input: PackingInput): Layout {
  const { stepCount: n, withExclusions } = input;
  const timeBits = Math.ceil(Math.log2(input.toMicros - input.fromMicros + 2));
  // Without exclusions the mask still has its bit 0: the tie flag (ties.ts).
  const exclBits = withExclusions ? n : 1;
  if (timeBits + n + exclBits + 1 <= 64) {
    return { cast: 'toUInt64', timeOffset: -input.fromMicros, maskBits: n, exclBits };
  }
  // The shifted absolute time needs 54 bits.
  return { cast: 1 + n + exclBits + 54 <= 128 ? 'toUInt128' : 'toUInt256', timeOffset: WIDE_TIME_OFFSET, maskBits: n, exclBits };
}

// Shift counts and masks are unsigned: with a signed one ClickHouse makes the result signed, and
// bitShiftRight then shifts arithmetically, so a number with its top bit set (a layout that fills
// all 64 bits) unpacks to a time 2^(64 - time shift) µs too early (~51 days with 20 steps).
const shiftLeft = (value: Expr, bits: number): Expr => (bits === 0 ? value : call('bitShiftLeft', value, constant(bits, 'UInt8')));
const shiftRight = (value: Expr, bits: number): Expr => (bits === 0 ? value : call('bitShiftRight', value, constant(bits, 'UInt8')));
/** The low `bits` bits (at most 40: a mask) of a packed number, as a UInt64. */
const lowBits = (value: Expr, bits: number): Expr =>
  bits === 0 ? call('toUInt64', num(0)) : call('toUInt64', call('bitAnd', value, constant(2 ** bits - 1, 'UInt64')));

export function packedEvents(ts: Expr, mask: Expr, excl: Expr, input: PackingInput): PackedEvents {
  const layout = layoutFor(input);
  const { cast, timeOffset, maskBits, exclBits } = layout;
  const exclShift = 1;
  const maskShift = exclShift + exclBits;
  const timeShift = maskShift + maskBits;
  // The outer cast keeps the type: ClickHouse's bit functions can widen or turn signed.
  const packed = call(cast, call('bitOr',
    call('bitOr',
      shiftLeft(call(cast, binary('+', ts, num(timeOffset))), timeShift),
      shiftLeft(call(cast, mask), maskShift)),
    call('bitOr', shiftLeft(call(cast, excl), exclShift), call(cast, num(1)))));
  const maskOf = (v: Expr) => lowBits(shiftRight(v, maskShift), maskBits);
  const exclOf = (v: Expr) => lowBits(shiftRight(v, exclShift), exclBits);
  const timeOf = (v: Expr) => shiftRight(v, timeShift);
  return {
    sorted: call('arraySort', call('groupArray', packed)),
    access: {
      mask: maskOf,
      excl: exclOf,
      sentinel: call(cast, num(0)),
      isReal: (v) => binary('=', lowBits(v, 1), num(1)),
      sameInstant: (v, other) => and(binary('=', lowBits(other, 1), num(1)), binary('=', timeOf(v), timeOf(other))),
      // Clear the exclusion field (xor with itself), then set its bit 0.
      tied: (v) => call(cast, call('bitOr',
        call('bitXor', v, shiftLeft(call(cast, exclOf(v)), exclShift)),
        shiftLeft(call(cast, num(1)), exclShift))),
    },
    unpackAll: (array) => call('arrayMap', lambda(['fn_packed'], tuple(
      binary('-', call('toInt64', shiftRight(field('fn_packed'), timeShift)), num(timeOffset)),
      maskOf(field('fn_packed')),
      exclOf(field('fn_packed')),
    )), array),
  };
}
