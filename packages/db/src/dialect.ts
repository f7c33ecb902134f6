export type Dialect = 'sqlite' | 'postgres' | 'mysql'

export interface DbConfig {
  dialect: Dialect
  /** SQLite: a file path (or `:memory:`). PostgreSQL/MySQL: a connection URL. */
  location: string
}

/**
 * Reads the database choice: a `postgres://` or `mysql://` URL selects that server,
 * anything else means the embedded SQLite file.
 */
export function parseDbUrl(url: string | undefined, sqliteFile: string): DbConfig {
  if (!url) return { dialect: 'sqlite', location: sqliteFile }
  if (/^postgres(ql)?:\/\//i.test(url)) return { dialect: 'postgres', location: url }
  if (/^(mysql|mariadb):\/\//i.test(url)) {
    return { dialect: 'mysql', location: url.replace(/^mariadb:/i, 'mysql:') }
  }
  if (/^sqlite:/i.test(url))
    return { dialect: 'sqlite', location: url.replace(/^sqlite:(\/\/)?/i, '') }
  throw new Error(
    `FLAGMAN_DB must start with postgres://, mysql:// or sqlite: (got "${url.split(':')[0]}:…")`,
  )
}
