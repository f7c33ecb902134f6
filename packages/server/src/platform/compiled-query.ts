import type { Database, Db } from '@flagman/db'
import type { Compilable, CompiledQuery, Kysely } from 'kysely'

/**
 * A query that runs on every request, built and compiled to SQL once per database instead of
 * on each run: building and compiling with Kysely costs more than running such a query on
 * SQLite. It is built once with placeholder values, and each run only swaps the real values
 * into the parameter list (the SQL text does not depend on them).
 */
export function compiledOnce<Names extends string, Row>(
  names: readonly Names[],
  build: (kysely: Kysely<Database>, placeholders: Record<Names, never>) => Compilable<Row>,
): (db: Db, values: Record<Names, unknown>) => Promise<Row | undefined> {
  const placeholders = Object.fromEntries(
    names.map((name) => [name, `\u0000placeholder:${name}`]),
  ) as Record<Names, never>
  const byPlaceholder = new Map<unknown, Names>(names.map((name) => [placeholders[name], name]))
  const compiled = new WeakMap<Kysely<Database>, CompiledQuery<Row>>()
  return async (db, values) => {
    let query = compiled.get(db.kysely)
    if (query === undefined) {
      query = build(db.kysely, placeholders).compile()
      compiled.set(db.kysely, query)
    }
    const parameters = query.parameters.map((parameter) => {
      const name = byPlaceholder.get(parameter)
      return name === undefined ? parameter : values[name]
    })
    const result = await db.kysely.executeQuery<Row>({ ...query, parameters })
    return result.rows[0]
  }
}
