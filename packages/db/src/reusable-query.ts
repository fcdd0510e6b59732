import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.js';

const PLACEHOLDER = '\u0000kontrol-parameter:';

/**
 * A query built and compiled by Kysely once per database handle, then run with new values: for the
 * few statements every request runs (the session's user), where building and compiling the query
 * cost more than the database's run of it. `build` must use each value of `params` only as a
 * bound value (a scalar in `where`, `values`, `set`), never in JavaScript logic or as a list:
 * it is called once with placeholders in their place.
 */
export function reusableQuery<P extends Record<string, string | number | null>, O>(
  build: (db: Kysely<Database>, params: P) => Compilable<O>,
): (db: Kysely<Database>, params: P) => Promise<O[]> {
  const compiled = new WeakMap<Kysely<Database>, { query: CompiledQuery<O>; slots: unknown[] }>();
  return async (db, params) => {
    let known = compiled.get(db);
    if (!known) {
      const placeholders = Object.fromEntries(
        Object.keys(params).map((name) => [name, `${PLACEHOLDER}${name}`]),
      ) as unknown as P;
      const query = build(db, placeholders).compile();
      known = { query, slots: [...query.parameters] };
      compiled.set(db, known);
    }
    const parameters = known.slots.map((slot) =>
      typeof slot === 'string' && slot.startsWith(PLACEHOLDER)
        ? params[slot.slice(PLACEHOLDER.length)]
        : slot,
    );
    const result = await db.executeQuery<O>({ ...known.query, parameters });
    return result.rows;
  };
}
