import { createDb, migrateToLatest, type Db } from '@flagman/db'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LogBuffer } from '../../src/modules/tasks/log-buffer.js'
import { TaskEvents } from '../../src/modules/tasks/task-events.js'
import {
  countOutputLines,
  readOutputPage,
  readWholeOutput,
} from '../../src/modules/tasks/task-output.repository.js'

const TIME = '2026-01-01T00:00:00.000Z'
const lines = (texts: string[]) => texts.map((output) => ({ time: TIME, output }))

describe('numbered task output', () => {
  let db: Db
  let buffer: LogBuffer
  let errors: unknown[]

  beforeEach(async () => {
    db = await createDb({ dialect: 'sqlite', location: ':memory:' })
    await migrateToLatest(db)
    // Output rows only: the tasks they belong to are not what is tested here.
    await sql`pragma foreign_keys = off`.execute(db.kysely)
    errors = []
    buffer = new LogBuffer(db, new TaskEvents(), { onError: (error) => errors.push(error) })
  })
  afterEach(async () => {
    buffer.stop()
    await db.destroy()
  })

  it('numbers a task lines from 1 without gaps across writes, and after close', async () => {
    const texts = Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`)
    buffer.append(7, 1, lines(texts.slice(0, 1000)))
    buffer.append(7, 1, lines(texts.slice(1000)))
    await buffer.close(7)
    // A line of the server's own after the task ended goes on from the stored ones.
    buffer.append(7, 1, lines(['Task finished']))
    await buffer.close(7)
    expect(errors).toEqual([])
    expect(await countOutputLines(db.kysely, 7)).toBe(2501)
    const page = await readOutputPage(db.kysely, 7, 1000, 3)
    expect(page.map((o) => [o.line, o.output])).toEqual([
      [1000, 'line 1000'],
      [1001, 'line 1001'],
      [1002, 'line 1002'],
    ])
    const end = await readOutputPage(db.kysely, 7, 2500, 10)
    expect(end.map((o) => o.output)).toEqual(['line 2500', 'Task finished'])
    const whole = await readWholeOutput(db.kysely, 7)
    expect(whole.map((o) => o.output)).toEqual([...texts, 'Task finished'])
    expect(Object.keys(whole[0]!).sort()).toEqual(['output', 'task_id', 'time'])
  })

  it('reads logs stored before lines were numbered in their order, and numbers on after them', async () => {
    await db.kysely
      .insertInto('task_output')
      .values(['old 1', 'old 2', 'old 3'].map((output) => ({ task_id: 9, time: TIME, output })))
      .execute()
    expect(await countOutputLines(db.kysely, 9)).toBe(3)
    buffer.append(9, 1, lines(['new 4', 'new 5']))
    await buffer.close(9)
    expect(await countOutputLines(db.kysely, 9)).toBe(5)
    const page = await readOutputPage(db.kysely, 9, 2, 3)
    expect(page.map((o) => [o.line, o.output])).toEqual([
      [2, 'old 2'],
      [3, 'old 3'],
      [4, 'new 4'],
    ])
    expect(await readOutputPage(db.kysely, 9, 6, 3)).toEqual([])
  })

  it('counts an empty log as 0 lines', async () => {
    expect(await countOutputLines(db.kysely, 3)).toBe(0)
    expect(await readOutputPage(db.kysely, 3, 1, 10)).toEqual([])
  })
})
