/**
 * A statement whose text never changes, only its values: built and compiled by Kysely once per
 * dialect, with a stand-in for each argument, then run with each call's values in the stand-ins'
 * places. Kysely builds a tree of frozen nodes and compiles it to SQL on every call; on the
 * statements every request or credit call runs (the session lookup, the rate-limit counter) that was
 * more of the main thread's time than running the statement on SQLite.
 *
 * Only for a build whose shape does not depend on its arguments: each argument must be used as a
 * value of the statement and nothing else (no `if` on it, no list whose length it sets).
 */
import { type Compilable, type CompiledQuery, type Kysely, createQueryId } from 'kysely';
import { isPostgres } from './dialect';
import { nameStatement } from './namedStatements';
import type { Database } from './schema';

/** Stands for argument `index` while the statement is built. */
class Stand {
  constructor(readonly index: number) {}
}

interface Compiled<R> {
  query: CompiledQuery<R>;
  /** For each parameter, the argument that fills it, or -1 for a value of the build itself. */
  fills: number[];
}

export function prepared<Args extends unknown[], R>(build: (db: Kysely<Database>, ...args: Args) => Compilable<R>) {
  const byDialect = new Map<boolean, Compiled<R>>();
  const compile = (db: Kysely<Database>, arity: number): Compiled<R> => {
    const stands = Array.from({ length: arity }, (_, i) => new Stand(i));
    const query = build(db, ...(stands as unknown as Args)).compile();
    const fills = query.parameters.map((p) => (p instanceof Stand ? p.index : -1));
    const missing = stands.filter((s) => !fills.includes(s.index));
    if (missing.length > 0) throw new Error(`prepared(): argument ${missing[0].index} is not a value of the statement (${query.sql})`);
    return { query, fills };
  };
  /** The rows the statement answers for these arguments. */
  return async (db: Kysely<Database>, ...args: Args): Promise<R[]> => {
    const postgres = isPostgres(db);
    let compiled = byDialect.get(postgres);
    if (!compiled) {
      byDialect.set(postgres, (compiled = compile(db, args.length)));
      if (postgres) nameStatement(compiled.query.sql);
    }
    const { query, fills } = compiled;
    const parameters = query.parameters.map((p, i) => (fills[i] < 0 ? p : args[fills[i]]));
    const { rows } = await db.executeQuery<R>({ ...query, parameters, queryId: createQueryId() });
    return rows;
  };
}
