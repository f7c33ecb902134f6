import type { TaskLogMessage } from '@flagman/contract'
import type { Database, Db } from '@flagman/db'
import { CompiledQuery, type Kysely } from 'kysely'
import type { TaskEvents } from './task-events.js'

export interface LogBufferOptions {
  /** Longest a line waits before it is written. */
  intervalMs?: number
  /** A task's buffer is written at once when it holds this many lines. */
  maxLines?: number
  /** Rows per INSERT statement (3 parameters each); larger writes share one transaction. */
  rowsPerInsert?: number
  /** A task with this many lines not yet stored is behind (see `backlog`). */
  maxPendingLines?: number
  onError?: (error: unknown) => void
}

interface Pending {
  projectId: number
  lines: Array<{ time: string; output: string }>
  /** Writes of this task, in order. */
  chain: Promise<void>
  /** A write is queued that will take every line buffered by the time it starts. */
  queued: boolean
}

/**
 * Collects task output in memory and writes it to `task_output` in multi-row inserts, in
 * order, then announces the written lines. Nothing is written one line per round trip.
 */
export class LogBuffer {
  private readonly pending = new Map<number, Pending>()
  private timer: NodeJS.Timeout | null = null
  /** When buffered lines were last handed to the database. */
  private lastFlushAt = 0
  private readonly intervalMs: number
  private readonly maxLines: number
  private readonly rowsPerInsert: number
  private readonly maxPendingLines: number

  constructor(
    private readonly db: Db,
    private readonly events: TaskEvents,
    private readonly options: LogBufferOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 25
    this.maxLines = options.maxLines ?? 500
    this.rowsPerInsert = options.rowsPerInsert ?? 1000
    this.maxPendingLines = options.maxPendingLines ?? 20_000
  }

  /**
   * A promise while the task's output is behind, either not yet stored or not yet taken by
   * the websocket clients; the task's process is not read until it settles. Null otherwise.
   */
  backlog(taskId: number): Promise<void> | null {
    const entry = this.pending.get(taskId)
    if (entry && entry.lines.length >= this.maxPendingLines) return this.flush(taskId)
    return this.events.deliveryBacklog()
  }

  append(taskId: number, projectId: number, lines: Array<{ time: string; output: string }>): void {
    if (lines.length === 0) return
    let entry = this.pending.get(taskId)
    if (!entry) {
      entry = { projectId, lines: [], chain: Promise.resolve(), queued: false }
      this.pending.set(taskId, entry)
    }
    for (const line of lines) entry.lines.push(line)
    if (entry.lines.length >= this.maxLines) void this.flush(taskId)
    else this.arm()
  }

  /** Writes everything buffered for the task; resolves once it is stored. */
  flush(taskId: number): Promise<void> {
    const entry = this.pending.get(taskId)
    if (!entry) return Promise.resolve()
    if (!entry.queued && entry.lines.length > 0) {
      entry.queued = true
      // Lines that arrive while the previous write runs go out together in the next one.
      entry.chain = entry.chain.then(() => {
        entry.queued = false
        const lines = entry.lines
        entry.lines = []
        return lines.length > 0 ? this.write(taskId, entry.projectId, lines) : undefined
      })
    }
    return entry.chain
  }

  /** Writes the task's lines and forgets it. */
  async close(taskId: number): Promise<void> {
    await this.flush(taskId)
    const entry = this.pending.get(taskId)
    if (entry && entry.lines.length === 0 && !entry.queued) this.pending.delete(taskId)
  }

  async flushAll(): Promise<void> {
    await Promise.all([...this.pending.keys()].map((id) => this.flush(id)))
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }

  /**
   * Writes at most once per interval: lines that arrive after a quiet spell go out at once
   * (so a new task's first line is not held back), lines of a busy stream are batched.
   */
  private arm(): void {
    if (this.timer) return
    const delay = Math.max(0, this.lastFlushAt + this.intervalMs - Date.now())
    this.timer = setTimeout(() => {
      this.timer = null
      this.lastFlushAt = Date.now()
      for (const [id, entry] of this.pending) if (entry.lines.length > 0) void this.flush(id)
    }, delay)
    this.timer.unref()
  }

  private readonly insertTexts = new Map<number, string>()

  /**
   * A multi-row INSERT as plain text: building a query tree for thousands of rows costs
   * more than the database spends storing them.
   */
  private insertSql(rows: number): string {
    let text = this.insertTexts.get(rows)
    if (text) return text
    const q = this.db.dialect === 'mysql' ? '`' : '"'
    const tuples: string[] = []
    for (let i = 0; i < rows; i += 1) {
      tuples.push(
        this.db.dialect === 'postgres'
          ? `($${i * 3 + 1}, $${i * 3 + 2}, $${i * 3 + 3})`
          : '(?, ?, ?)',
      )
    }
    text = `insert into ${q}task_output${q} (${q}task_id${q}, ${q}time${q}, ${q}output${q}) values ${tuples.join(', ')}`
    if (this.insertTexts.size < 64) this.insertTexts.set(rows, text)
    return text
  }

  private async write(
    taskId: number,
    projectId: number,
    lines: Array<{ time: string; output: string }>,
  ): Promise<void> {
    try {
      const insert = async (db: Kysely<Database>) => {
        for (let i = 0; i < lines.length; i += this.rowsPerInsert) {
          const chunk = lines.slice(i, i + this.rowsPerInsert)
          const params: unknown[] = []
          for (const l of chunk) params.push(taskId, l.time, l.output)
          await db.executeQuery(CompiledQuery.raw(this.insertSql(chunk.length), params))
        }
      }
      if (lines.length <= this.rowsPerInsert) await insert(this.db.kysely)
      else await this.db.kysely.transaction().execute(insert)
    } catch (error) {
      this.options.onError?.(error)
    }
    const messages: TaskLogMessage[] = lines.map((l) => ({
      type: 'log',
      task_id: taskId,
      project_id: projectId,
      time: l.time,
      output: l.output,
    }))
    this.events.emit('logs', messages)
  }
}
