import type { TaskLogMessage } from '@flagman/contract'
import type { Db } from '@flagman/db'
import type { LogMetrics } from '../metrics/hooks.js'
import { LogInserter, type StoredLine } from './log-insert.js'
import type { TaskEvents } from './task-events.js'
import { countOutputLines } from './task-output.repository.js'

export interface LogBufferOptions {
  /** Longest a line waits before it is written. */
  intervalMs?: number
  /** A task's buffer is written at once when it holds this many lines. */
  maxLines?: number
  /** A task with this many lines not yet stored is behind (see `backlog`). */
  maxPendingLines?: number
  onError?: (error: unknown) => void
  /** Told of every write: how many lines, and how long the oldest waited. */
  metrics?: LogMetrics
}

interface Pending {
  projectId: number
  lines: StoredLine[]
  /** Writes of this task, in order. */
  chain: Promise<void>
  /** A write is queued that will take every line buffered by the time it starts. */
  queued: boolean
  /** Number of the next line stored; read from the database by the task's first write. */
  nextLine: number | undefined
  /** When the oldest line now buffered arrived (ms since the epoch). */
  since: number
}

/**
 * Collects task output in memory and writes it to `task_output` in multi-row inserts, in
 * order and numbered 1, 2, … per task, then announces the written lines. Nothing is written
 * one line per round trip, and a task whose lines pile up is held back (`backlog`) so memory
 * stays bounded whatever the length of its log.
 */
export class LogBuffer {
  private readonly pending = new Map<number, Pending>()
  private timer: NodeJS.Timeout | null = null
  /** When buffered lines were last handed to the database. */
  private lastFlushAt = 0
  /** When lines were last stored (ms since the epoch; 0: never). */
  private lastStoredAt = 0
  private readonly intervalMs: number
  private readonly maxLines: number
  private readonly maxPendingLines: number
  private readonly inserter: LogInserter

  constructor(
    private readonly db: Db,
    private readonly events: TaskEvents,
    private readonly options: LogBufferOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 25
    this.maxLines = options.maxLines ?? 500
    this.maxPendingLines = options.maxPendingLines ?? 20_000
    this.inserter = new LogInserter(db.dialect)
  }

  /**
   * A promise while the task's output is behind, either not yet stored or not yet taken by
   * the websocket clients; the task's process is not read until it settles. Null otherwise.
   */
  /** Whether log lines were stored within the last `withinMs` milliseconds. */
  storedWithin(withinMs: number): boolean {
    return Date.now() - this.lastStoredAt < withinMs
  }

  backlog(taskId: number): Promise<void> | null {
    const entry = this.pending.get(taskId)
    if (entry && entry.lines.length >= this.maxPendingLines) return this.flush(taskId)
    return this.events.deliveryBacklog()
  }

  append(taskId: number, projectId: number, lines: readonly StoredLine[]): void {
    if (lines.length === 0) return
    let entry = this.pending.get(taskId)
    if (!entry) {
      entry = {
        projectId,
        lines: [],
        chain: Promise.resolve(),
        queued: false,
        nextLine: undefined,
        since: 0,
      }
      this.pending.set(taskId, entry)
    }
    if (entry.lines.length === 0) {
      entry.lines = lines.slice()
      entry.since = Date.now()
    } else for (const line of lines) entry.lines.push(line)
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
        const since = entry.since
        entry.lines = []
        return lines.length > 0 ? this.write(taskId, entry, lines, since) : undefined
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

  /**
   * Stores the lines after the task's last one, numbered on, and announces them. A write of
   * several statements is one transaction: it is stored whole or not at all, so the numbers
   * stay without gaps either way.
   */
  private async write(
    taskId: number,
    entry: Pending,
    lines: StoredLine[],
    since: number,
  ): Promise<void> {
    try {
      // A task seen for the first time (or again, after `close` or a restart) goes on from
      // what is already stored: server messages may follow its end, a runner's task may
      // outlive the server.
      entry.nextLine ??= (await countOutputLines(this.db.kysely, taskId)) + 1
      const firstLine = entry.nextLine
      if (this.inserter.statementCount(lines) <= 1) {
        await this.inserter.insert(this.db.kysely, taskId, firstLine, lines)
      } else {
        await this.db.kysely
          .transaction()
          .execute((trx) => this.inserter.insert(trx, taskId, firstLine, lines))
      }
      entry.nextLine = firstLine + lines.length
      this.lastStoredAt = Date.now()
      this.options.metrics?.linesStored(lines.length, this.lastStoredAt - since)
    } catch (error) {
      this.options.onError?.(error)
    }
    const projectId = entry.projectId
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
