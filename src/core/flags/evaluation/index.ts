// The flag evaluator: pure (no storage, no HTTP); callers bring the subject's merged properties.
export { evaluateFlag, evaluateFlags } from './evaluate.js';
export type { FlagEvaluationContext, FlagSubject } from './subject.js';
export { flagHash, holdoutHash } from './hash.js';
export { matchProperty } from './operators.js';
