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
import { binary, call, field, lambda, tuple } from '../../ast/build.js';
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
}

/** Events already unpacked into (ts Int64, mask UInt64, excl UInt64) tuples. */
export const TUPLE_ACCESS: EventAccess = {
  mask: (event) => el(event, 2),
  excl: (event) => el(event, 3),
  // Exclusion bit 0 would guard step 1, which no exclusion does: no real event has it.
  sentinel: tuple(call('toInt64', num(0)), call('toUInt64', num(0)), call('toUInt64', num(1))),
  isReal: (event) => binary('=', call('bitTest', el(event, 3), num(0)), num(0)),
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
  const exclBits = withExclusions ? n : 0;
  if (timeBits + n + exclBits + 1 <= 64) {
    return { cast: 'toUInt64', timeOffset: -input.fromMicros, maskBits: n, exclBits };
  }
  // The shifted absolute time needs 54 bits.
  return { cast: 1 + n + exclBits + 54 <= 128 ? 'toUInt128' : 'toUInt256', timeOffset: WIDE_TIME_OFFSET, maskBits: n, exclBits };
}

const shiftLeft = (value: Expr, bits: number): Expr => (bits === 0 ? value : call('bitShiftLeft', value, num(bits)));
const shiftRight = (value: Expr, bits: number): Expr => (bits === 0 ? value : call('bitShiftRight', value, num(bits)));
/** The low `bits` bits (at most 40: a mask) of a packed number, as a UInt64. */
const lowBits = (value: Expr, bits: number): Expr =>
  bits === 0 ? call('toUInt64', num(0)) : call('toUInt64', call('bitAnd', value, num(2 ** bits - 1)));

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
    exclBits === 0 ? call(cast, num(1)) : call('bitOr', shiftLeft(call(cast, excl), exclShift), call(cast, num(1)))));
  const maskOf = (v: Expr) => lowBits(shiftRight(v, maskShift), maskBits);
  const exclOf = (v: Expr) => lowBits(shiftRight(v, exclShift), exclBits);
  return {
    sorted: call('arraySort', call('groupArray', packed)),
    access: {
      mask: maskOf,
      excl: exclOf,
      sentinel: call(cast, num(0)),
      isReal: (v) => binary('=', lowBits(v, 1), num(1)),
    },
    unpackAll: (array) => call('arrayMap', lambda(['fn_packed'], tuple(
      binary('-', call('toInt64', shiftRight(field('fn_packed'), timeShift)), num(timeOffset)),
      maskOf(field('fn_packed')),
      exclOf(field('fn_packed')),
    )), array),
  };
}
