// `FROM events SAMPLE size [OFFSET offset]`: the ratios as exact fractions (ClickHouse reads 0.1 as
// 1/10, not as a binary float), checked here; the printer turns them into the rows ClickHouse's
// sampling by cityHash64(distinct_id) keeps (printer/sample.ts).
import type { SampleRatio, TableSample } from '../../ast/nodes.js';
import { HogQLQueryError } from '../errors.js';
import type { HogQLNode } from './hogql-ast.js';

export const SAMPLE_TABLES_ONLY = 'SAMPLE is only supported on the events table (sampled by cityHash64(distinct_id), as PostHog declares it)';

const DECIMAL = /^([0-9]+)(?:\.([0-9]+))?(?:e([+-][0-9]+))?$/;

/** A non-negative number literal as numerator / denominator, from its shortest decimal text. */
function exact(value: unknown): { num: bigint; den: bigint } {
  const match = typeof value === 'number' && Number.isFinite(value) && value >= 0 ? DECIMAL.exec(String(value)) : null;
  if (!match) throw new HogQLQueryError('SAMPLE and its OFFSET take a number or a ratio of numbers, not negative');
  const exponent = Number(match[3] ?? 0) - (match[2]?.length ?? 0);
  const digits = BigInt(match[1]! + (match[2] ?? ''));
  return exponent >= 0 ? { num: digits * 10n ** BigInt(exponent), den: 1n } : { num: digits, den: 10n ** BigInt(-exponent) };
}

function ratioOf(node: HogQLNode | undefined): SampleRatio | undefined {
  if (!node) return undefined;
  const constantOf = (key: string) => {
    const part = node[key] as HogQLNode | null | undefined;
    if (!part) return undefined;
    if (part.node !== 'Constant') throw new HogQLQueryError('SAMPLE and its OFFSET take a number or a ratio of numbers, not negative');
    return exact(part['value']);
  };
  const left = constantOf('left')!;
  const right = constantOf('right') ?? { num: 1n, den: 1n };
  if (right.num === 0n) throw new HogQLQueryError('Division by zero in a SAMPLE ratio');
  return { numerator: String(left.num * right.den), denominator: String(left.den * right.num) };
}

const isZero = (r: SampleRatio) => r.numerator === '0';
const isOne = (r: SampleRatio) => r.numerator === r.denominator;

/** The SAMPLE of a FROM or JOIN item, checked; undefined when it has none. */
export function sampleOf(join: HogQLNode): TableSample | undefined {
  const node = join['sample'] as HogQLNode | null | undefined;
  if (!node) return undefined;
  const size = ratioOf(node['sample_value'] as HogQLNode | undefined);
  if (!size) throw new HogQLQueryError('SAMPLE needs a size');
  const offset = ratioOf((node['offset_value'] as HogQLNode | null | undefined) ?? undefined);
  // Size 0 or 1 samples nothing; an offset then is ClickHouse's error.
  if ((isZero(size) || isOne(size)) && offset && !isZero(offset)) throw new HogQLQueryError('Sampling offset is incorrect because no sampling.');
  return offset && !isZero(offset) ? { size, offset } : { size };
}
