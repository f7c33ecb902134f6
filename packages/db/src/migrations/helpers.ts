/*
 * Column helpers shared by migrations. Append-only: once a migration uses a helper,
 * its behaviour is frozen, because changing it would change what old migrations create.
 */
import { sql, type CreateTableBuilder, type Kysely } from 'kysely'
import type { Dialect } from '../dialect.js'

/* eslint-disable @typescript-eslint/no-explicit-any */
type Table = CreateTableBuilder<any, any>

/** Auto-increment integer primary key named `id`. */
export function idColumn(table: Table, dialect: Dialect): Table {
  return dialect === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
}

/** UTC timestamp stored as an ISO-8601 string, so every dialect sorts and returns it alike. */
export const TIMESTAMP = 'varchar(32)'
export const NAME = 'varchar(255)'
export const SHORT = 'varchar(64)'

/** Booleans are integers 0/1 on every dialect. */
export function boolColumn(table: Table, name: string): Table {
  return table.addColumn(name, 'integer', (c) => c.notNull().defaultTo(0))
}

/** Foreign key to another table's id. */
export function refColumn(
  table: Table,
  name: string,
  target: string,
  options: { nullable?: boolean; onDelete?: 'cascade' | 'set null' | 'restrict' } = {},
): Table {
  return table.addColumn(name, 'integer', (c) => {
    let col = c.references(`${target}.id`).onDelete(options.onDelete ?? 'cascade')
    if (!options.nullable) col = col.notNull()
    return col
  })
}

/**
 * Unbounded text. MySQL's TEXT stops at 64 KiB, so it gets MEDIUMTEXT (16 MiB) there.
 */
export function textType(dialect: Dialect): Parameters<Table['addColumn']>[1] {
  return dialect === 'mysql' ? sql`mediumtext` : 'text'
}

/** Starts a table; on MySQL/MariaDB always in utf8mb4, whatever the server's default. */
export function createTable(db: Kysely<any>, name: string, dialect: Dialect): Table {
  const table = db.schema.createTable(name)
  return dialect === 'mysql'
    ? table.modifyEnd(sql`default character set utf8mb4 collate utf8mb4_unicode_ci`)
    : table
}

/** Binary data up to 16 MiB (MEDIUMBLOB on MySQL, whose packets are often limited to 16 MiB). */
export function binaryType(dialect: Dialect): Parameters<Table['addColumn']>[1] {
  if (dialect === 'mysql') return sql`mediumblob`
  return dialect === 'postgres' ? sql`bytea` : sql`blob`
}
