// The printer: exact {sql, params}, the project guard, and refusal of anything not on its lists.
import { describe, expect, it } from 'vitest';
import {
  alias, and, call, constant, eq, field, leftJoin, or, parametricCall, select, subquery, table,
} from '../../src/query/ast/build.js';
import { scopeToProject } from '../../src/query/passes/scope-to-project.js';
import { ApiError, InternalError } from '../../src/errors.js';
import { OutOfRangeNumberError, printQuery, PrintError, QueryTooLargeError, UnscopedTableError } from '../../src/query/printer/print.js';

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
}

const countPageviews = select({
  select: [alias(call('count'), 'total')],
  from: table('events', 'e'),
  where: eq(field('event', 'e'), constant('$pageview')),
});

describe('printQuery', () => {
  it('prints values as typed parameters and reads the table through its own guarded SELECT', () => {
    expect(printQuery(scopeToProject(countPageviews, 7), 'hoglet')).toEqual({
      sql: 'SELECT count() AS `total` FROM (SELECT * FROM `hoglet`.`events` WHERE team_id = {p0:UInt64}) AS `e` WHERE (`e`.`event` = {p1:String})',
      params: { p0: 7, p1: '$pageview' },
    });
  });

  it('refuses to print a table the team guard has not scoped', () => {
    expect(() => printQuery(countPageviews, 'hoglet')).toThrow(UnscopedTableError);
  });

  it('scopes tables inside joins and subqueries, including subqueries used as values', () => {
    const query = select({
      select: [field('event', 'e')],
      from: table('events', 'e'),
      joins: [leftJoin(table('persons', 'p'), eq(field('id', 'p'), field('person_id', 'e')))],
      where: call('in', field('distinct_id', 'e'), select({ select: [field('distinct_id')], from: table('person_distinct_id_overrides', 'o') })),
    });
    expect(() => printQuery(query, 'hoglet')).toThrow(UnscopedTableError);
    const { sql, params } = printQuery(scopeToProject(query, 3), 'hoglet');
    expect(sql).toBe(
      'SELECT `e`.`event` FROM (SELECT * FROM `hoglet`.`events` WHERE team_id = {p0:UInt64}) AS `e` LEFT JOIN (SELECT * FROM `hoglet`.`persons` WHERE team_id = {p0:UInt64}) AS `p` ON (`p`.`id` = `e`.`person_id`)'
      + ' WHERE in(`e`.`distinct_id`, (SELECT `distinct_id` FROM (SELECT * FROM `hoglet`.`person_distinct_id_overrides` WHERE team_id = {p0:UInt64}) AS `o`))',
    );
    // Equal values of one type share a parameter.
    expect(params).toEqual({ p0: 3 });
  });

  it('scopes a subquery in FROM and keeps the outer select free of guards', () => {
    const inner = select({ select: [field('event')], from: table('events', 'e') });
    const { sql } = printQuery(scopeToProject(select({ select: [call('count')], from: subquery(inner, 'x') }), 9), 'db');
    expect(sql).toBe('SELECT count() FROM (SELECT `event` FROM (SELECT * FROM `db`.`events` WHERE team_id = {p0:UInt64}) AS `e`) AS `x`');
  });

  it('stops a tree that would print without end (subtrees shared 2^30 times) at its budget, as a 400', () => {
    let doubled: ReturnType<typeof and> = eq(field('event', 'e'), constant('x'));
    for (let i = 0; i < 30; i++) doubled = and(doubled, doubled);
    const started = Date.now();
    const error = catchError(() => printQuery(scopeToProject(select({ select: [call('count')], from: table('events', 'e'), where: doubled }), 1), 'db'));
    expect(error).toBeInstanceOf(QueryTooLargeError);
    expect((error as ApiError).status).toBe(400);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('refuses functions that are not on the allow-list', () => {
    const query = scopeToProject(select({ select: [call('file', constant('/etc/passwd'))], from: table('events', 'e') }), 1);
    expect(() => printQuery(query, 'hoglet')).toThrow(/function not allowed/);
    expect(() => printQuery(scopeToProject(select({ select: [call('url', constant('http://x'), constant('CSV'))] }), 1), 'hoglet')).toThrow(PrintError);
  });

  it('escapes names that are not plain inside backticks, and refuses empty, over-long or control-character names', () => {
    const printed = (name: string) => printQuery(select({ select: [alias(constant(1), name)] }), 'hoglet').sql;
    expect(printed('a`b')).toBe('SELECT {p0:Int64} AS `a\\`b`');
    expect(printed('x\\`; DROP TABLE events')).toBe('SELECT {p0:Int64} AS `x\\\\\\`; DROP TABLE events`');
    expect(printed('my count')).toBe('SELECT {p0:Int64} AS `my count`');
    for (const name of ['', 'a\u0000b', 'line\nbreak', 'x'.repeat(257)]) {
      expect(() => printQuery(select({ select: [field(name)] }), 'hoglet'), name).toThrow(PrintError);
      expect(() => printQuery(select({ select: [alias(constant(1), name)] }), 'hoglet'), name).toThrow(PrintError);
    }
    expect(() => printQuery(select({ select: [constant(1)] }), 'hog`let')).toThrow(PrintError);
  });

  it('infers parameter types and prints parametric aggregates, AND and OR', () => {
    const { sql, params } = printQuery(select({
      select: [parametricCall('quantile', [constant(0.9)], [field('x')])],
      where: or(and(eq(field('a'), constant(1)), eq(field('b'), constant(true))), eq(field('c'), constant(['x', 'y']))),
    }), 'hoglet');
    expect(sql).toBe('SELECT quantile({p0:Float64})(`x`) WHERE (((`a` = {p1:Int64}) AND (`b` = {p2:Bool})) OR (`c` = {p3:Array(String)}))');
    expect(params).toEqual({ p0: 0.9, p1: 1, p2: true, p3: ['x', 'y'] });
  });

  it('refuses a LIMIT that is not a row count as the client\'s error (an exposed 400)', () => {
    for (const limit of [-1, 1.5, 2 ** 53]) {
      const refuse = () => printQuery(select({ select: [constant(1)], limit }), 'hoglet');
      expect(refuse, String(limit)).toThrow(OutOfRangeNumberError);
      const error = catchError(refuse);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).toBody()).toMatchObject({ type: 'validation_error', code: 'out_of_range', attr: null });
      expect((error as ApiError).status).toBe(400);
    }
  });

  it('refuses trees our own code built wrongly as internal errors, never exposed', () => {
    for (const refuse of [
      () => printQuery(countPageviews, 'hoglet'),
      () => printQuery(select({ select: [call('url', constant('x'))] }), 'hoglet'),
      () => printQuery(select({ select: [field('a\u0001b')] }), 'hoglet'),
    ]) {
      const error = catchError(refuse);
      expect(error).toBeInstanceOf(InternalError);
      expect(error).not.toBeInstanceOf(ApiError);
      expect((error as InternalError).code).toBe('print_error');
    }
  });
});
