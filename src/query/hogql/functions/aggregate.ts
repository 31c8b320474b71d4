// Aggregate functions a HogQL query may call, including the -If / -Array / -Map / -ForEach
// combinator forms PostHog lists. One line per HogQL name: [minArgs, maxArgs (null = unbounded),
// { ch, ci, params: [minParams, maxParams | null] }]. Deliberate differences from PostHog are marked
// "Hoglet:". See index.ts for what is left out (notably the -State / -Merge forms).

import { AGGREGATE_TEMPLATE_FUNCTIONS } from './templates.js';
import { defineTable, type HogQLFunction, type Spec } from './types.js';

const CI = { ci: true } as const;
const ONE_PARAM = { params: [1, 1] } as const;
// Hoglet: PostHog leaves these parameters unchecked (or caps quantilesIf at one level); ClickHouse
// needs at least one and accepts several.
const SOME_PARAMS = { params: [1, null] } as const;

const AGGREGATES: Record<string, Spec> = {
  // standard
  count: [0, 1, CI],
  countIf: [1, 2],
  countDistinct: [1, 1],
  countDistinctIf: [1, 2],
  countMapIf: [2, 3],
  min: [1, 1, CI],
  minIf: [2, 2],
  minForEach: [1, 1],
  max: [1, 1, CI],
  maxIf: [2, 2],
  sum: [1, 1, CI],
  sumIf: [2, 2],
  sumForEach: [1, 1],
  avg: [1, 1, CI],
  avgIf: [2, 2],
  avgMap: [1, 1],
  avgMapIf: [2, 3],
  avgArray: [1, 1, { ch: 'avgArrayOrNull' }],
  any: [1, 1],
  anyIf: [2, 2],
  stddevPop: [1, 1],
  stddevPopIf: [2, 2],
  stddevSamp: [1, 1],
  stddevSampIf: [2, 2],
  varPop: [1, 1],
  varPopIf: [2, 2],
  varSamp: [1, 1],
  varSampIf: [2, 2],
  covarPop: [2, 2],
  covarPopIf: [3, 3],
  covarSamp: [2, 2],
  covarSampIf: [3, 3],
  corr: [2, 2],
  // ClickHouse-specific
  anyHeavy: [1, 1],
  anyHeavyIf: [2, 2],
  anyLast: [1, 1],
  anyLastIf: [2, 2],
  argMin: [2, 2],
  argMinIf: [3, 3],
  argMax: [2, 2],
  argMaxIf: [3, 3],
  avgWeighted: [2, 2],
  avgWeightedIf: [3, 3],
  topK: [1, 1, ONE_PARAM],
  groupArray: [1, 1],
  array_agg: [1, 1, { ch: 'groupArray' }],
  groupArrayIf: [2, 2],
  groupUniqArray: [1, 1],
  groupUniqArrayIf: [2, 2],
  groupUniqArrayArray: [1, 1, { params: [0, 1] }],
  groupUniqArrayArrayIf: [2, 2, { params: [0, 1] }],
  groupArrayInsertAt: [2, 2],
  groupArrayInsertAtIf: [3, 3],
  groupArrayMovingAvg: [1, 1],
  groupArrayMovingAvgIf: [2, 2],
  groupArrayMovingSum: [1, 1],
  groupArrayMovingSumIf: [2, 2],
  groupArraySample: [1, 1, { params: [1, 2] }],
  groupArraySampleIf: [2, 2, { params: [1, 2] }],
  groupBitAnd: [1, 1],
  groupBitAndIf: [2, 2],
  groupBitOr: [1, 1],
  groupBitOrIf: [2, 2],
  groupBitXor: [1, 1],
  groupBitXorIf: [2, 2],
  groupBitmap: [1, 1],
  groupBitmapIf: [2, 2],
  groupBitmapAnd: [1, 1],
  groupBitmapAndIf: [2, 2],
  groupBitmapOr: [1, 1],
  groupBitmapOrIf: [2, 2],
  groupBitmapXor: [1, 1],
  groupBitmapXorIf: [2, 2],
  sumWithOverflow: [1, 1],
  sumWithOverflowIf: [2, 2],
  deltaSum: [1, 1],
  deltaSumIf: [2, 2],
  deltaSumTimestamp: [2, 2],
  deltaSumTimestampIf: [3, 3],
  sumMap: [1, 2],
  sumMapIf: [2, 3],
  minMap: [1, 2],
  minMapIf: [2, 3],
  maxMap: [1, 2],
  maxMapIf: [2, 3],
  skewSamp: [1, 1],
  skewSampIf: [2, 2],
  skewPop: [1, 1],
  skewPopIf: [2, 2],
  kurtSamp: [1, 1],
  kurtSampIf: [2, 2],
  kurtPop: [1, 1],
  kurtPopIf: [2, 2],
  // distinct counts
  uniq: [1, null],
  uniqIf: [2, null],
  uniqExact: [1, null],
  uniqExactIf: [2, null],
  uniqHLL12: [1, null],
  uniqHLL12If: [2, null],
  uniqTheta: [1, null],
  uniqThetaIf: [2, null],
  uniqMap: [1, 1],
  // medians and quantiles
  median: [1, 1],
  medianIf: [2, 2],
  medianArray: [1, 1, { ch: 'medianArrayOrNull' }],
  medianExact: [1, 1],
  medianExactIf: [2, 2],
  medianExactLow: [1, 1],
  medianExactLowIf: [2, 2],
  medianExactHigh: [1, 1],
  medianExactHighIf: [2, 2],
  medianExactWeighted: [1, 1],
  medianExactWeightedIf: [2, 2],
  medianTiming: [1, 1],
  medianTimingIf: [2, 2],
  medianTimingWeighted: [1, 1],
  medianTimingWeightedIf: [2, 2],
  medianDeterministic: [1, 1],
  medianDeterministicIf: [2, 2],
  medianTDigest: [1, 1],
  medianTDigestIf: [2, 2],
  medianTDigestWeighted: [1, 1],
  medianTDigestWeightedIf: [2, 2],
  medianBFloat16: [1, 1],
  medianBFloat16If: [2, 2],
  quantile: [1, 1, ONE_PARAM],
  quantileIf: [2, 2, ONE_PARAM],
  quantiles: [1, null, SOME_PARAMS],
  quantilesIf: [2, 2, SOME_PARAMS],
  quantileExact: [1, 1, ONE_PARAM],
  // statistics
  simpleLinearRegression: [2, 2],
  simpleLinearRegressionIf: [3, 3],
  contingency: [2, 2],
  contingencyIf: [3, 3],
  cramersV: [2, 2],
  cramersVIf: [3, 3],
  cramersVBiasCorrected: [2, 2],
  cramersVBiasCorrectedIf: [3, 3],
  theilsU: [2, 2],
  theilsUIf: [3, 3],
  maxIntersections: [2, 2],
  maxIntersectionsIf: [3, 3],
  maxIntersectionsPosition: [2, 2],
  maxIntersectionsPositionIf: [3, 3],
  // funnels: windowFunnel(window[, mode...])(timestamp, cond1, cond2, ...)
  windowFunnel: [1, 99, SOME_PARAMS],
};

/**
 * PostHog's generated combinator forms of avg, sum, min, max, count, countDistinct and median:
 * each suffix at most once, each followed only by the suffixes it allows; -If and -ArgMin/-ArgMax
 * take one more argument. Hoglet leaves out -State and -Merge (see left-out.ts).
 */
const COMBINATORS: Record<string, { readonly next: readonly string[]; readonly extraArg: number }> = {
  If: { next: [], extraArg: 1 },
  Array: { next: ['If', 'OrDefault', 'OrNull'], extraArg: 0 },
  Map: { next: ['If', 'OrDefault', 'OrNull'], extraArg: 0 },
  ForEach: { next: ['If', 'OrDefault', 'OrNull'], extraArg: 0 },
  OrDefault: { next: ['If'], extraArg: 0 },
  OrNull: { next: ['If'], extraArg: 0 },
  ArgMin: { next: ['If', 'OrDefault', 'OrNull'], extraArg: 1 },
  ArgMax: { next: ['If', 'OrDefault', 'OrNull'], extraArg: 1 },
};
const COMBINATOR_BASES: Record<string, readonly [number, number]> = {
  avg: [1, 1], sum: [1, 1], min: [1, 1], max: [1, 1], count: [0, 1], countDistinct: [1, 1], median: [1, 1],
};

function combinatorForms(): Record<string, Spec> {
  const out: Record<string, Spec> = {};
  const grow = (name: string, used: readonly string[], min: number, max: number, allowed: readonly string[]) => {
    for (const suffix of allowed) {
      if (used.includes(suffix)) continue;
      const { next, extraArg } = COMBINATORS[suffix]!;
      out[name + suffix] = [min + extraArg, max + extraArg];
      grow(name + suffix, [...used, suffix], min + extraArg, max + extraArg, next);
    }
  };
  for (const [base, [min, max]] of Object.entries(COMBINATOR_BASES)) grow(base, [], min, max, Object.keys(COMBINATORS));
  return out;
}

// The explicit lines win over a generated form of the same name, as in PostHog.
export const AGGREGATE_FUNCTIONS: ReadonlyMap<string, HogQLFunction> = new Map([
  ...defineTable({ ...combinatorForms(), ...AGGREGATES }, { aggregate: true }),
  ...AGGREGATE_TEMPLATE_FUNCTIONS,
]);
