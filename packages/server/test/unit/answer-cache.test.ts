import { createDb, scopeOfStatement, WriteClock, type Db } from '@flagman/db'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AnswerCache } from '../../src/platform/answer-cache.js'

describe('which clock a statement moves', () => {
  it.each([
    ['select * from task', null],
    ['  SELECT 1', null],
    ['with t as (select 1) select * from t', null],
    ['explain select 1', null],
    ['insert into "task_output" ("task_id") values (?)', 'logs'],
    ['insert into `task_output` (task_id) values (?)', 'logs'],
    ['insert into task_output_fts (rowid, output) select id, output from task_output', 'logs'],
    ['update task_output_search_progress set indexed_through = ?', 'logs'],
    ['delete from "task_output" where "task_id" = ?', 'logs'],
    ['insert into "task" ("template_id") values (?)', 'data'],
    ['update "task" set "status" = ?', 'data'],
    ['delete from "template" where "id" = ?', 'data'],
    ['insert or ignore into "option" ("key") values (?)', 'data'],
    ['with gone as (delete from task returning id) select count(*) from gone', 'data'],
    ['pragma foreign_keys = ON', 'data'],
    ['create index x on task (id)', 'data'],
    ['update "server_instance" set "heartbeat" = ? where "id" = ?', null],
    ['delete from `server_instance` where `id` = ?', null],
  ])('%s → %s', (text, scope) => {
    expect(scopeOfStatement(text)).toBe(scope)
  })
})

describe('write clock of a database', () => {
  let db: Db
  beforeEach(async () => {
    db = await createDb({ dialect: 'sqlite', location: ':memory:' })
    await sql`create table item (id integer primary key, name text)`.execute(db.kysely)
    await sql`create table task_output (id integer primary key, output text)`.execute(db.kysely)
  })
  afterEach(() => db.destroy())

  const clocks = () => ({ data: db.writes.data, logs: db.writes.logs })

  it('stands still on reads', async () => {
    const before = clocks()
    await sql`select count(*) from item`.execute(db.kysely)
    await sql`with t as (select id from item) select * from t`.execute(db.kysely)
    expect(clocks()).toEqual(before)
  })

  it('moves the data clock after a write, the log clock after a log write', async () => {
    const before = clocks()
    await sql`insert into item (name) values ('a')`.execute(db.kysely)
    expect(db.writes.data).toBeGreaterThan(before.data)
    expect(db.writes.logs).toBe(before.logs)
    const middle = clocks()
    await sql`insert into task_output (output) values ('line')`.execute(db.kysely)
    expect(db.writes.logs).toBeGreaterThan(middle.logs)
    expect(db.writes.data).toBe(middle.data)
  })

  it('moves again when a transaction commits or rolls back', async () => {
    let insideWrite = 0
    await db.kysely.transaction().execute(async (trx) => {
      await sql`insert into item (name) values ('b')`.execute(trx)
      insideWrite = db.writes.data
    })
    expect(db.writes.data).toBeGreaterThan(insideWrite)

    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await sql`insert into item (name) values ('c')`.execute(trx)
        insideWrite = db.writes.data
        throw new Error('undo')
      }),
    ).rejects.toThrow('undo')
    expect(db.writes.data).toBeGreaterThan(insideWrite)
  })

  it('moves even when the write fails', async () => {
    const before = db.writes.data
    await expect(sql`insert into missing (x) values (1)`.execute(db.kysely)).rejects.toThrow()
    expect(db.writes.data).toBeGreaterThan(before)
  })
})

describe('answer cache', () => {
  function setUp(maxBytes = 1024) {
    const clock = new WriteClock()
    const cache = new AnswerCache(clock, maxBytes)
    let computed = 0
    const compute = (text: string) => async () => {
      computed += 1
      return text
    }
    return { clock, cache, compute, computed: () => computed }
  }

  it('answers again from what it kept while nothing was written', async () => {
    const { cache, compute, computed } = setUp()
    expect((await cache.answer('k', 'data', compute('one')))?.toString()).toBe('one')
    expect((await cache.answer('k', 'data', compute('two')))?.toString()).toBe('one')
    expect(computed()).toBe(1)
  })

  it('computes again after a write of the scope the answer depends on', async () => {
    const { clock, cache, compute } = setUp()
    await cache.answer('list', 'data', compute('old'))
    await cache.answer('log', 'data-and-logs', compute('old log'))
    clock.move('logs')
    expect((await cache.answer('list', 'data', compute('new')))?.toString()).toBe('old')
    expect((await cache.answer('log', 'data-and-logs', compute('new log')))?.toString()).toBe(
      'new log',
    )
    clock.move('data')
    expect((await cache.answer('list', 'data', compute('new')))?.toString()).toBe('new')
    expect((await cache.answer('log', 'data-and-logs', compute('newer')))?.toString()).toBe('newer')
  })

  it('does not keep an answer when a write happened while it was computed', async () => {
    const { clock, cache, compute, computed } = setUp()
    const answer = await cache.answer('k', 'data', async () => {
      clock.move('data')
      return 'read before the write committed'
    })
    expect(answer?.toString()).toBe('read before the write committed')
    expect((await cache.answer('k', 'data', compute('fresh')))?.toString()).toBe('fresh')
    expect(computed()).toBe(1)
  })

  it('lets requests that arrive meanwhile wait for the one computation', async () => {
    const { cache } = setUp()
    let computations = 0
    let finish: (text: string) => void = () => {}
    const slow = () => {
      computations += 1
      return new Promise<string>((resolve) => (finish = resolve))
    }
    const answers = Promise.all([1, 2, 3].map(() => cache.answer('k', 'data', slow)))
    finish('shared')
    expect((await answers).map((b) => b?.toString())).toEqual(['shared', 'shared', 'shared'])
    expect(computations).toBe(1)
  })

  it('shares a failure with those waiting, and keeps nothing', async () => {
    const { cache, compute } = setUp()
    const failing = async () => {
      throw new Error('not found')
    }
    await expect(cache.answer('k', 'data', failing)).rejects.toThrow('not found')
    expect((await cache.answer('k', 'data', compute('now')))?.toString()).toBe('now')
  })

  it('stays within its size, dropping the least recently used answers', async () => {
    const { cache, compute, computed } = setUp(1000)
    await cache.answer('a', 'data', compute('a'.repeat(250)))
    await cache.answer('b', 'data', compute('b'.repeat(250)))
    await cache.answer('a', 'data', compute('a'))
    await cache.answer('c', 'data', compute('c'.repeat(250)))
    await cache.answer('d', 'data', compute('d'.repeat(250)))
    await cache.answer('e', 'data', compute('e'.repeat(250)))
    expect(cache.size).toBeLessThanOrEqual(1000)
    expect(computed()).toBe(5)
    await cache.answer('a', 'data', compute('a again'))
    expect(computed()).toBe(5)
    await cache.answer('b', 'data', compute('b again'))
    expect(computed()).toBe(6)
    // An answer bigger than a quarter of the room is never kept.
    await cache.answer('big', 'data', compute('x'.repeat(300)))
    await cache.answer('big', 'data', compute('x'.repeat(300)))
    expect(computed()).toBe(8)
  })

  it('keeps nothing when its size is 0', async () => {
    const { cache } = setUp(0)
    expect(cache.enabled).toBe(false)
  })
})
