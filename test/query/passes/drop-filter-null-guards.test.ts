// `ifNull(cond, false)` goes from filters only where NULL and false keep the same rows: through
// AND and OR in WHERE and HAVING, at any depth of subquery; never under NOT or outside a filter.
import { describe, expect, it } from 'vitest';
import { and, call, constant, field, not, or, select, subquery, table } from '../../../src/query/ast/build.js';
import { dropFilterNullGuards } from '../../../src/query/passes/drop-filter-null-guards.js';
import { scopeToProject } from '../../../src/query/passes/scope-to-project.js';
import { printQuery } from '../../../src/query/printer/print.js';

const guarded = (name: string) => call('ifNull', call('equals', field(name), constant('x')), constant(false));
const print = (query: Parameters<typeof dropFilterNullGuards>[0]) => printQuery(scopeToProject(dropFilterNullGuards(query), 1), 'db').sql;

describe('dropping null guards from filters', () => {
  it('drops them through AND and OR in WHERE and HAVING, in subqueries too', () => {
    const inner = select({ select: [field('event')], from: table('events', 'events'), where: and(guarded('a'), or(guarded('b'), guarded('c'))) });
    const outer = select({ select: [call('count')], from: subquery(inner, 'e'), groupBy: [field('event')], having: guarded('d') });
    const sql = print(outer);
    expect(sql).not.toContain('ifNull');
    for (const name of ['a', 'b', 'c', 'd']) expect(sql).toContain(`equals(\`${name}\``);
  });

  it('keeps them under NOT, in the select list and with any fallback but false', () => {
    const sql = print(select({
      select: [guarded('shown')],
      from: table('events', 'events'),
      where: and(not(guarded('negated')), call('ifNull', call('equals', field('kept'), constant('x')), constant(true))),
    }));
    expect(sql.match(/ifNull/g)).toHaveLength(3);
  });
});
