import Database from 'better-sqlite3'
import type { Pool, PoolClient } from 'pg'
import { describe, expect, it } from 'vitest'
import { withNamedStatements } from '../../../db/src/dialects/postgres-named-statements.js'
import { withStatementCache } from '../../../db/src/dialects/sqlite-statement-cache.js'

describe('SQLite statement cache', () => {
  function counted() {
    const database = new Database(':memory:')
    let prepared = 0
    const prepare = database.prepare.bind(database)
    database.prepare = ((sql: string) => {
      prepared += 1
      return prepare(sql)
    }) as typeof database.prepare
    return { database, prepared: () => prepared }
  }

  it('prepares each SQL text once and reuses it', () => {
    const { database, prepared } = counted()
    const cached = withStatementCache(database)
    for (let i = 0; i < 5; i += 1) {
      expect(cached.prepare('select ? as n').all([i])).toEqual([{ n: i }])
    }
    expect(prepared()).toBe(1)
    cached.close()
  })

  it('keeps at most `size` statements, dropping the least recently used', () => {
    const { database, prepared } = counted()
    const cached = withStatementCache(database, 2)
    cached.prepare('select 1')
    cached.prepare('select 2')
    cached.prepare('select 1')
    cached.prepare('select 3') // drops "select 2", the least recently used
    expect(prepared()).toBe(3)
    cached.prepare('select 1')
    expect(prepared()).toBe(3)
    cached.prepare('select 2')
    expect(prepared()).toBe(4)
    cached.close()
  })

  it('never hands out a statement that is still being iterated', () => {
    const { database } = counted()
    const cached = withStatementCache(database)
    const sql = 'select value from json_each(?)'
    const rows = cached.prepare(sql).iterate(['[1,2,3]'])
    expect(rows.next().value).toEqual({ value: 1 })
    // The cached statement is busy: a second use gets a statement of its own.
    expect(cached.prepare(sql).all(['[4]'])).toEqual([{ value: 4 }])
    expect([...rows]).toEqual([{ value: 2 }, { value: 3 }])
    cached.close()
  })
})

describe('PostgreSQL named statements', () => {
  function fakePool() {
    const sent: unknown[] = []
    const client = {
      query: (config: unknown, values?: unknown) => {
        sent.push(values === undefined ? config : { text: config, values })
        return Promise.resolve({ command: 'SELECT', rowCount: 0, rows: [] })
      },
      release: () => {},
    }
    const pool = {
      connect: () => Promise.resolve(client as unknown as PoolClient),
      end: () => Promise.resolve(),
    }
    return { pool: pool as unknown as Pool, sent }
  }

  it('names a text from its second run on, and the same text keeps its name', async () => {
    const { pool, sent } = fakePool()
    const client = await withNamedStatements(pool).connect()
    for (let i = 0; i < 3; i += 1) await client.query('select $1', [i])
    expect(sent).toEqual([
      { text: 'select $1', values: [0] },
      { name: 'flagman_1', text: 'select $1', values: [1] },
      { name: 'flagman_1', text: 'select $1', values: [2] },
    ])
  })

  it('stops naming new texts once the limit is reached', async () => {
    const { pool, sent } = fakePool()
    const client = await withNamedStatements(pool, 1).connect()
    for (const sql of ['select 1', 'select 1', 'select 2', 'select 2']) await client.query(sql, [])
    expect(sent.map((q) => (q as { name?: string }).name)).toEqual([
      undefined,
      'flagman_1',
      undefined,
      undefined,
    ])
  })
})
