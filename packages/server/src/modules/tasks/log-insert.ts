import type { Database, Dialect } from '@flagman/db'
import { CompiledQuery, type Kysely } from 'kysely'

/** A line of task output as it is stored. */
export interface StoredLine {
  time: string
  output: string
}

/** Most rows one statement carries: 4 parameters each stays far below every dialect's limit. */
export const MAX_ROWS_PER_INSERT = 1024
/**
 * Output bytes one statement carries at most, so that a few very long lines do not make a
 * statement larger than MariaDB's packet limit (16 MiB by default) or pin much memory.
 */
const MAX_BYTES_PER_INSERT = 4 * 1024 * 1024

/**
 * Writes numbered task output rows with as few statements as the database allows:
 * - PostgreSQL: one `insert … select from unnest(arrays)` for any number of rows, a single
 *   text that the connection prepares once;
 * - MariaDB/MySQL: one multi-row VALUES per chunk. Each statement is a round trip to a server
 *   process, which costs more than the rows on a busy machine; the driver sends plain text, so
 *   no prepared statement is kept per size;
 * - SQLite: multi-row VALUES of power-of-two sizes (at most 11 texts), so a batch of n rows is
 *   at most log2(n) statements, all found in the prepared-statement cache, and their texts
 *   never crowd it out. Statements there are calls, not round trips.
 * The caller runs a write of more than one statement in a transaction.
 */
export class LogInserter {
  private readonly valuesTexts = new Map<number, string>()

  constructor(private readonly dialect: Dialect) {}

  /** How many statements a write of these lines takes (more than one wants a transaction). */
  statementCount(lines: readonly StoredLine[]): number {
    let count = 0
    this.forEachChunk(lines, (start, end) => {
      count += this.dialect === 'sqlite' ? popCount(end - start) : 1
    })
    return count
  }

  /** Inserts the lines, numbered from `firstLine`, in order. */
  async insert(
    db: Kysely<Database>,
    taskId: number,
    firstLine: number,
    lines: readonly StoredLine[],
  ): Promise<void> {
    const chunks: Array<[number, number]> = []
    this.forEachChunk(lines, (start, end) => chunks.push([start, end]))
    for (const [start, end] of chunks) {
      if (this.dialect === 'postgres') {
        await db.executeQuery(unnestInsert(taskId, firstLine, lines, start, end))
        continue
      }
      if (this.dialect === 'mysql') {
        await db.executeQuery(this.valuesInsert(taskId, firstLine, lines, start, end - start))
        continue
      }
      // 1000 rows go as 512 + 256 + 128 + 64 + 32 + 8: each size's text is built once.
      let at = start
      for (let size = MAX_ROWS_PER_INSERT; size >= 1; size >>= 1) {
        while (end - at >= size) {
          await db.executeQuery(this.valuesInsert(taskId, firstLine, lines, at, size))
          at += size
        }
      }
    }
  }

  /** Cuts the lines into runs of at most MAX_ROWS_PER_INSERT rows and MAX_BYTES_PER_INSERT. */
  private forEachChunk(
    lines: readonly StoredLine[],
    chunk: (start: number, end: number) => void,
  ): void {
    let start = 0
    let bytes = 0
    for (let i = 0; i < lines.length; i += 1) {
      const length = lines[i]!.output.length
      if (
        i > start &&
        (i - start >= MAX_ROWS_PER_INSERT || bytes + length > MAX_BYTES_PER_INSERT)
      ) {
        chunk(start, i)
        start = i
        bytes = 0
      }
      bytes += length
    }
    if (start < lines.length) chunk(start, lines.length)
  }

  private valuesInsert(
    taskId: number,
    firstLine: number,
    lines: readonly StoredLine[],
    start: number,
    rows: number,
  ): CompiledQuery {
    const params: unknown[] = new Array(rows * 4)
    for (let i = 0, p = 0; i < rows; i += 1, p += 4) {
      const line = lines[start + i]!
      params[p] = taskId
      params[p + 1] = line.time
      params[p + 2] = line.output
      params[p + 3] = firstLine + start + i
    }
    return CompiledQuery.raw(this.valuesText(rows), params)
  }

  private valuesText(rows: number): string {
    let text = this.valuesTexts.get(rows)
    if (text === undefined) {
      const q = this.dialect === 'mysql' ? '`' : '"'
      text =
        `insert into ${q}task_output${q} (${q}task_id${q}, ${q}time${q}, ${q}output${q}, ${q}line${q}) values ` +
        new Array<string>(rows).fill('(?, ?, ?, ?)').join(', ')
      // Every size may come up on MariaDB; the texts are cheap to build again.
      if (this.valuesTexts.size >= MAX_ROWS_PER_INSERT / 16) this.valuesTexts.clear()
      this.valuesTexts.set(rows, text)
    }
    return text
  }
}

/**
 * One statement for any number of rows: the columns travel as three arrays, so PostgreSQL
 * parses and plans a single text, and each row costs no bind parameters of its own.
 */
const UNNEST_INSERT =
  'insert into "task_output" ("task_id", "time", "output", "line") ' +
  'select $1, r.time, r.output, r.line from unnest($2::varchar[], $3::text[], $4::int[]) ' +
  'as r(time, output, line)'

function unnestInsert(
  taskId: number,
  firstLine: number,
  lines: readonly StoredLine[],
  start: number,
  end: number,
): CompiledQuery {
  const times = new Array<string>(end - start)
  const outputs = new Array<string>(end - start)
  const numbers = new Array<number>(end - start)
  for (let i = start; i < end; i += 1) {
    const line = lines[i]!
    times[i - start] = line.time
    outputs[i - start] = line.output
    numbers[i - start] = firstLine + i
  }
  return CompiledQuery.raw(UNNEST_INSERT, [taskId, times, outputs, numbers])
}

function popCount(n: number): number {
  let count = 0
  for (let rest = n; rest > 0; rest >>= 1) count += rest & 1
  return count
}
