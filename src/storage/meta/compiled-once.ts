// Kysely builds and compiles a statement on every call: for the small indexed reads behind every
// API request that is most of their cost (about 40 % of a cached insight read's CPU, measured in
// bench/README.md). A hot read whose SQL depends only on the shape of its arguments (which are
// given, how long each list is) is built once per shape with placeholders, and each call binds its
// own values in the placeholders' places: the same SQL text and the same bound parameters Kysely
// would have produced, without building it again.
import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { MetaSchema } from './schema.js';

/** Stands for the argument value at `index` while the statement is built. */
class Placeholder {
  constructor(readonly index: number) {}
}

type Argument = string | number | boolean | null | undefined | readonly (string | number)[];

interface Compiled {
  sql: string;
  /** Per bound parameter: the argument value's index, or a constant the builder wrote itself. */
  parameters: ({ index: number } | { constant: unknown })[];
}

export interface CompiledRead<Args extends readonly Argument[], Row> {
  all(db: Kysely<MetaSchema>, ...args: Args): Promise<Row[]>;
  first(db: Kysely<MetaSchema>, ...args: Args): Promise<Row | undefined>;
}

/** A read built by `build` once per argument shape and SQL dialect, then only bound. */
export function compiledOnce<Args extends readonly Argument[], Row>(
  build: (db: Kysely<MetaSchema>, ...args: Args) => Compilable<Row>,
): CompiledRead<Args, Row> {
  // Keyed by the dialect's adapter: SQLite and PostgreSQL write different SQL for one query.
  const byAdapter = new WeakMap<object, Map<string, Compiled>>();

  async function all(db: Kysely<MetaSchema>, ...args: Args): Promise<Row[]> {
    const values: unknown[] = [];
    const shape: string[] = [];
    const hold = (value: unknown) => new Placeholder(values.push(value) - 1);
    const placeholders = args.map((arg) => {
      if (arg === undefined) return shape.push('u'), undefined;
      if (Array.isArray(arg)) return shape.push(`[${arg.length}]`), arg.map(hold);
      return shape.push('v'), hold(arg);
    }) as unknown as Args;
    const adapter = db.getExecutor().adapter;
    let shapes = byAdapter.get(adapter);
    if (!shapes) byAdapter.set(adapter, (shapes = new Map()));
    const key = shape.join(',');
    let compiled = shapes.get(key);
    if (!compiled) {
      const { sql, parameters } = build(db, ...placeholders).compile();
      compiled = {
        sql,
        parameters: parameters.map((parameter) => (parameter instanceof Placeholder ? { index: parameter.index } : { constant: parameter })),
      };
      shapes.set(key, compiled);
    }
    const bound = compiled.parameters.map((parameter) => ('index' in parameter ? values[parameter.index] : parameter.constant));
    return (await db.executeQuery<Row>(CompiledQuery.raw(compiled.sql, bound))).rows;
  }

  return {
    all,
    first: async (db, ...args) => (await all(db, ...args))[0],
  };
}
