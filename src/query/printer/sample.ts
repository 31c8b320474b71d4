// HogQL's `SAMPLE size [OFFSET offset]` on the events table. PostHog's events table is declared
// `SAMPLE BY cityHash64(distinct_id)`; Hoglet's stores have no sampling key, so the printer keeps
// the rows ClickHouse's sampling on that key keeps: those whose hash lies in
// [offset, offset + size) of the UInt64 range, with its bounds (MergeTreeDataSelectExecutor):
// lower = floor(offset * 2^64), applied when > 0; upper = floor((offset + size) * 2^64), applied
// when (offset + size) * 2^64 < 2^64. A size of 0 or 1 samples nothing (an offset then is refused
// by the translator, as ClickHouse refuses it). A size or offset above 1 counts rows: ClickHouse
// divides it by the rows of the parts it reads; Hoglet divides it by the project's events, so a
// project's sample never depends on another's data (a size that reaches them all keeps all).
import { InternalError } from '../../errors.js';
import type { SampleRatio, TableSample } from '../ast/nodes.js';
import type { ParamBag } from './params.js';

const UNIVERSE = 2n ** 64n;
const WHOLE = /^(0|[1-9][0-9]*)$/;

interface Ratio {
  readonly num: bigint;
  readonly den: bigint;
}

function ratio(r: SampleRatio | undefined): Ratio {
  if (r === undefined) return { num: 0n, den: 1n };
  if (!WHOLE.test(r.numerator) || !WHOLE.test(r.denominator) || r.denominator === '0') throw new InternalError('print_error', 'a SAMPLE ratio is not checked whole numbers');
  return { num: BigInt(r.numerator), den: BigInt(r.denominator) };
}

const aboveOne = (r: Ratio) => r.num > r.den;

/**
 * The condition on `hash` (the SQL of cityHash64(distinct_id)) that keeps the sampled rows, or
 * undefined when every row is kept. `rows` prints the count of the project's events.
 */
export function sampleCondition(sample: TableSample, hash: string, bag: ParamBag, rows: () => string): string | undefined {
  const size = ratio(sample.size);
  const offset = ratio(sample.offset);
  if (aboveOne(size) || aboveOne(offset)) return countedCondition(size, offset, hash, bag, rows);
  if (size.num === 0n || size.num === size.den) return undefined;
  const lower = (offset.num * UNIVERSE) / offset.den;
  // (offset + size) * 2^64 as one fraction over den_o * den_s.
  const upperNum = (offset.num * size.den + size.num * offset.den) * UNIVERSE;
  const upperDen = offset.den * size.den;
  const conditions: string[] = [];
  if (lower >= UNIVERSE) return '0';
  if (lower > 0n) conditions.push(`${hash} >= ${bag.add(lower.toString(), 'UInt64')}`);
  if (upperNum < UNIVERSE * upperDen) conditions.push(`${hash} < ${bag.add((upperNum / upperDen).toString(), 'UInt64')}`);
  return conditions.length ? conditions.join(' AND ') : undefined;
}

/**
 * A size or offset that counts rows: its share of the project's events, computed by the engine
 * (the size capped at all of them), the bounds compared as Float64 (the engine compares a UInt64
 * with a Float64 exactly; a share of a row count is approximate anyway, as in ClickHouse).
 */
function countedCondition(size: Ratio, offset: Ratio, hash: string, bag: ParamBag, rows: () => string): string {
  const share = (r: Ratio, cap: boolean): string => {
    const value = bag.add(Number(r.num) / Number(r.den), 'Float64');
    if (!aboveOne(r)) return value;
    return cap ? `least(${value} / ${rows()}, 1)` : `(${value} / ${rows()})`;
  };
  const universe = bag.add(2 ** 64, 'Float64');
  const start = share(offset, false);
  return `${hash} >= ${start} * ${universe} AND ${hash} < (${start} + ${share(size, true)}) * ${universe}`;
}
