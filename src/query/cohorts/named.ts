// The cohorts a query node names: cohort property filters anywhere in it (series, steps, the
// query's own filters, test-account filters) and a cohort breakdown's ids, each with where it was
// named, so a missing one is a 400 that points at it.
const MAX_DEPTH = 64;

export interface CohortMention {
  readonly id: number;
  readonly path: string;
}

export function cohortsNamedIn(root: unknown, rootPath: string): CohortMention[] {
  const found: CohortMention[] = [];
  const visit = (value: unknown, path: string, depth: number): void => {
    if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, `${path}[${i}]`, depth + 1));
      return;
    }
    const node = value as Record<string, unknown>;
    if (node.type === 'cohort' && isCohortId(node.value)) found.push({ id: Number(node.value), path: `${path}.value` });
    if (node.breakdown_type === 'cohort') {
      const given = Array.isArray(node.breakdown_cohorts) ? node.breakdown_cohorts : node.breakdown;
      const ids = Array.isArray(given) ? given : [given];
      ids.forEach((id, i) => { if (isCohortId(id)) found.push({ id: Number(id), path: `${path}.breakdown[${i}]` }); });
    }
    for (const [key, child] of Object.entries(node)) visit(child, path ? `${path}.${key}` : key, depth + 1);
  };
  visit(root, rootPath, 0);
  return found;
}

function isCohortId(value: unknown): boolean {
  const n = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 && n <= 2 ** 31 - 1;
}
