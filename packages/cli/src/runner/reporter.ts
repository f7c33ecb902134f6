/*
 * Progress reports to the server (`PUT /api/internal/runners`). Log lines are buffered per
 * job and sent in batches; a status change or a commit goes out at once. One report is in
 * flight at a time and each job's lines and statuses keep their order: a job's status is
 * sent only after every line printed before it.
 */
import type { RunnerJobProgress } from '@flagman/contract'
import {
  ReportRefusedError,
  ReportTooLargeError,
  RunnerRefusedError,
  type ProtocolClient,
} from './protocol-client.js'
import { Backoff } from './backoff.js'
import { say, sayError } from './say.js'

/** Lines of a busy job go out at most this often… */
const FLUSH_MS = 100
/** …or as soon as this many lines or bytes wait. */
const FLUSH_LINES = 2000
const FLUSH_BYTES = 1024 * 1024
/** One report carries at most this much log text; the server takes bodies up to 16 MB. */
const BATCH_BYTES = 4 * 1024 * 1024
const BATCH_RECORDS = 50_000
/** A longer body is cut in half before it is sent (JSON escapes can grow the text). */
const MAX_BODY_BYTES = 12 * 1024 * 1024
/** One line longer than this is cut: it could never fit in a report otherwise. */
const MAX_LINE_CHARS = 1024 * 1024
/** A job's process stops reading its output while more than this waits to be sent… */
const BACKLOG_HIGH = 8 * 1024 * 1024
/** …and goes on once the backlog is under this. */
const BACKLOG_LOW = 2 * 1024 * 1024
/** JSON around one log record: `{"time":"…","message":""}` and a comma. */
const RECORD_OVERHEAD = 48

interface LogRecord {
  time: string
  message: string
}

/** Lines followed by the status (and commit) that came after them; open while `status` is null. */
interface Chunk {
  records: LogRecord[]
  status: string | null
  commit: { hash: string; message: string } | null
}

interface JobReport {
  id: number
  chunks: Chunk[]
  /** The status the server last heard from us (or that we adopted from it). */
  status: string
  /** Set once the final status is queued: nothing more is accepted. */
  final: boolean
  refused: boolean
}

interface PlannedEntry {
  job: JobReport
  /** Records taken from the head chunk. */
  count: number
  /** The head chunk is sent whole, with its status. */
  closes: boolean
}

export interface ReporterEvents {
  /** The server refused the job's report (400): the job must stop and be forgotten. */
  refused(jobId: number, reason: string): void
  /** The job's final status reached the server. */
  finished(jobId: number): void
  /** The token was refused: the runner must end. */
  fatal(error: RunnerRefusedError): void
}

export class Reporter {
  private readonly jobs = new Map<number, JobReport>()
  /** Bytes of log text buffered or in flight. */
  private bytes = 0
  private lineCount = 0
  private closedChunks = 0
  private sending = false
  private timer: NodeJS.Timeout | null = null
  private lastLinesFlushAt = 0
  private backlogWaiters: Array<() => void> = []
  private idleWaiters: Array<() => void> = []
  private readonly backoff = new Backoff()

  constructor(
    private readonly client: ProtocolClient,
    private readonly events: ReporterEvents,
  ) {}

  /** Starts reporting a job; `status` is what the server has it at now. */
  open(jobId: number, status: string): void {
    if (!this.jobs.has(jobId)) {
      this.jobs.set(jobId, { id: jobId, chunks: [], status, final: false, refused: false })
    }
  }

  lines(jobId: number, records: LogRecord[]): void {
    const job = this.jobs.get(jobId)
    if (!job || job.final || job.refused || records.length === 0) return
    const chunk = this.openChunk(job)
    for (const record of records) {
      const message =
        record.message.length > MAX_LINE_CHARS
          ? `${record.message.slice(0, MAX_LINE_CHARS)} [line cut]`
          : record.message
      chunk.records.push({ time: record.time, message })
      this.bytes += message.length + RECORD_OVERHEAD
    }
    this.lineCount += records.length
    this.schedule()
  }

  /** A status change, sent after the lines before it; `final` ends the job's reports. */
  status(jobId: number, status: string, final = false): void {
    const job = this.jobs.get(jobId)
    if (!job || job.final || job.refused) return
    if (!final && status === this.latestStatus(job)) return
    this.openChunk(job).status = status
    this.closedChunks += 1
    if (final) job.final = true
    this.schedule()
  }

  commit(jobId: number, hash: string, message: string): void {
    const job = this.jobs.get(jobId)
    if (!job || job.final || job.refused) return
    const chunk = this.openChunk(job)
    chunk.status = this.latestStatus(job)
    chunk.commit = { hash, message }
    this.closedChunks += 1
    this.schedule()
  }

  /** The server changed the status itself (a stop, a confirmation): lines are sent with it. */
  adopt(jobId: number, status: string): void {
    const job = this.jobs.get(jobId)
    if (job && !job.final) job.status = status
  }

  /** A promise while too much output waits to be sent; the job's process then pauses. */
  backlog(): Promise<void> | null {
    if (this.bytes < BACKLOG_HIGH) return null
    return new Promise((resolve) => this.backlogWaiters.push(resolve))
  }

  /** Resolves once everything queued so far was sent (or dropped). */
  idle(): Promise<void> {
    if (!this.sending && this.pending() === 0) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  /** Forgets a job without sending what it still has. */
  drop(jobId: number): void {
    const job = this.jobs.get(jobId)
    if (!job) return
    for (const chunk of job.chunks) this.forgetChunk(chunk)
    job.chunks = []
    this.jobs.delete(jobId)
    this.release()
    if (!this.sending) this.settleIdle()
  }

  private latestStatus(job: JobReport): string {
    for (let i = job.chunks.length - 1; i >= 0; i -= 1) {
      const status = job.chunks[i]?.status
      if (status) return status
    }
    return job.status
  }

  private openChunk(job: JobReport): Chunk {
    const last = job.chunks[job.chunks.length - 1]
    if (last && last.status === null) return last
    const chunk: Chunk = { records: [], status: null, commit: null }
    job.chunks.push(chunk)
    return chunk
  }

  private pending(): number {
    return this.lineCount + this.closedChunks
  }

  private forgetChunk(chunk: Chunk): void {
    for (const record of chunk.records) this.bytes -= record.message.length + RECORD_OVERHEAD
    this.lineCount -= chunk.records.length
    if (chunk.status !== null) this.closedChunks -= 1
  }

  private settleIdle(): void {
    if (this.pending() !== 0) return
    const waiters = this.idleWaiters
    this.idleWaiters = []
    for (const resolve of waiters) resolve()
  }

  private schedule(): void {
    if (this.sending || this.pending() === 0) return
    const urgent =
      this.closedChunks > 0 || this.lineCount >= FLUSH_LINES || this.bytes >= FLUSH_BYTES
    const delay = urgent ? 0 : Math.max(0, this.lastLinesFlushAt + FLUSH_MS - Date.now())
    if (delay === 0) {
      if (this.timer !== null) clearTimeout(this.timer)
      this.timer = null
      void this.flush()
    } else if (this.timer === null) {
      this.timer = setTimeout(() => {
        this.timer = null
        this.schedule()
      }, delay)
    }
  }

  /** What the next report carries: each job's oldest lines, up to `budget` bytes. */
  private plan(budget: number): PlannedEntry[] {
    const entries: PlannedEntry[] = []
    let bytes = 0
    let records = 0
    for (const job of this.jobs.values()) {
      const chunk = job.chunks[0]
      if (!chunk) continue
      let count = 0
      while (count < chunk.records.length && records < BATCH_RECORDS) {
        const size = (chunk.records[count]?.message.length ?? 0) + RECORD_OVERHEAD
        if (bytes + size > budget && (count > 0 || entries.length > 0 || bytes > 0)) break
        bytes += size
        records += 1
        count += 1
      }
      const closes = chunk.status !== null && count === chunk.records.length
      if (count > 0 || closes) entries.push({ job, count, closes })
      if (bytes >= budget || records >= BATCH_RECORDS) break
    }
    return entries
  }

  private progress(entry: PlannedEntry): RunnerJobProgress {
    const chunk = entry.job.chunks[0]!
    const status = entry.closes ? chunk.status! : entry.job.status
    return {
      ID: entry.job.id,
      Status: status,
      LogRecords: chunk.records.slice(0, entry.count),
      ...(entry.closes && chunk.commit ? { Commit: chunk.commit } : {}),
    }
  }

  private async flush(): Promise<void> {
    this.sending = true
    try {
      while (this.pending() > 0) {
        let budget = BATCH_BYTES
        let entries = this.plan(budget)
        let body = JSON.stringify({ Jobs: entries.map((e) => this.progress(e)) })
        while (Buffer.byteLength(body) > MAX_BODY_BYTES && budget > 1024) {
          budget = Math.floor(budget / 2)
          entries = this.plan(budget)
          body = JSON.stringify({ Jobs: entries.map((e) => this.progress(e)) })
        }
        if (entries.length === 0) break
        if (entries.some((e) => e.count > 0)) this.lastLinesFlushAt = Date.now()
        const refused = await this.send(entries, body)
        for (const entry of entries) {
          if (refused.has(entry.job.id)) continue
          this.consume(entry)
        }
        for (const [jobId, reason] of refused) this.refuse(jobId, reason)
        this.release()
        // Lines without a status wait for the next slot, so a busy job's lines go in batches.
        const urgent =
          this.closedChunks > 0 || this.lineCount >= FLUSH_LINES || this.bytes >= FLUSH_BYTES
        if (!urgent) break
      }
    } catch (error) {
      if (error instanceof RunnerRefusedError) {
        this.events.fatal(error)
        return
      }
      // Not the server's answer: a fault of this process. Say so and try again shortly.
      sayError(`Cannot send progress: ${error instanceof Error ? error.message : String(error)}`)
      this.timer ??= setTimeout(() => {
        this.timer = null
        this.schedule()
      }, 1000)
      return
    } finally {
      this.sending = false
    }
    this.settleIdle()
    this.schedule()
  }

  /**
   * Sends a batch until the server answers; answers the jobs it refused. A refused batch
   * was not written at all, so each of its jobs is tried alone to find the culprit.
   */
  private async send(entries: PlannedEntry[], body: string): Promise<Map<number, string>> {
    const refused = new Map<number, string>()
    try {
      await this.sendRetrying(body)
      return refused
    } catch (error) {
      if (!(error instanceof ReportRefusedError || error instanceof ReportTooLargeError)) {
        throw error
      }
      if (entries.length === 1) {
        refused.set(entries[0]!.job.id, error.message)
        return refused
      }
    }
    for (const entry of entries) {
      try {
        await this.sendRetrying(JSON.stringify({ Jobs: [this.progress(entry)] }))
      } catch (error) {
        if (!(error instanceof ReportRefusedError || error instanceof ReportTooLargeError)) {
          throw error
        }
        refused.set(entry.job.id, error.message)
      }
    }
    // Jobs sent alone above are consumed by the caller like a whole batch.
    return refused
  }

  private async sendRetrying(body: string): Promise<void> {
    for (;;) {
      try {
        await this.client.report(body)
        this.backoff.reset(() => say('Progress reports reach the server again'))
        return
      } catch (error) {
        if (
          error instanceof ReportRefusedError ||
          error instanceof ReportTooLargeError ||
          error instanceof RunnerRefusedError
        ) {
          throw error
        }
        await this.backoff.wait((delay) =>
          sayError(
            `Cannot send progress (${error instanceof Error ? error.message : String(error)}); ` +
              `retrying in ${(delay / 1000).toFixed(1)} s`,
          ),
        )
      }
    }
  }

  private consume(entry: PlannedEntry): void {
    const { job } = entry
    const chunk = job.chunks[0]
    if (!chunk) return
    const sent = chunk.records.splice(0, entry.count)
    for (const record of sent) this.bytes -= record.message.length + RECORD_OVERHEAD
    this.lineCount -= sent.length
    if (!entry.closes) return
    job.chunks.shift()
    this.closedChunks -= 1
    job.status = chunk.status ?? job.status
    if (job.final && job.chunks.length === 0) {
      this.jobs.delete(job.id)
      this.events.finished(job.id)
    }
  }

  private refuse(jobId: number, reason: string): void {
    const job = this.jobs.get(jobId)
    if (!job) return
    job.refused = true
    this.drop(jobId)
    this.events.refused(jobId, reason)
  }

  /** Lets paused processes go on once the backlog has drained enough. */
  private release(): void {
    if (this.bytes > BACKLOG_LOW || this.backlogWaiters.length === 0) return
    const waiters = this.backlogWaiters
    this.backlogWaiters = []
    for (const resolve of waiters) resolve()
  }
}
