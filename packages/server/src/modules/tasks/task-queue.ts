import type {
  ActiveTask,
  JobLine,
  JobResult,
  JobSpec,
  JobStatus,
  TaskStatus,
  TaskUpdateMessage,
} from '@flagman/contract'
import type { Db } from '@flagman/db'
import { nowIso } from '@flagman/db'
import type { FastifyBaseLogger } from 'fastify'
import type { SecretBox } from '../../lib/secret-box.js'
import { BadRequestError } from '../../platform/errors.js'
import { insertEvent } from '../events/events.repository.js'
import { buildJobSpec, PreparationError } from './job-spec.js'
import { LogBuffer } from './log-buffer.js'
import { pickRunnable, type QueueItem } from './queue-limits.js'
import { TaskEvents } from './task-events.js'
import { canTransition, INTERRUPTED_STATUSES, finalStatus } from './task-state.js'
import { insertTaskRow, type TaskRow } from './tasks.repository.js'

export interface JobHooks {
  onLines(lines: JobLine[]): void
  onStatus(status: JobStatus): void
  onCommit(hash: string, message: string): void
  outputBacklog?(): Promise<void> | null
}
export interface JobOptions {
  baseEnv?: Record<string, string>
  graceMs?: number
}
export interface JobHandle {
  stop(force: boolean): void
  confirm(): void
  reject(): void
  readonly done: Promise<JobResult>
}
/** The executor's entry point (`runJob` of @flagman/executor); injected for tests. */
export type RunJob = (spec: JobSpec, hooks: JobHooks, options?: JobOptions) => JobHandle

export interface TaskQueueDeps {
  db: Db
  box: SecretBox
  dataDir: string
  webHost: string
  maxParallelTasks: number
  log: FastifyBaseLogger
  runJob: RunJob
  /** Grace between SIGTERM and SIGKILL on a normal stop. */
  graceMs?: number
  /** Grace given to running tasks when the server shuts down. */
  shutdownGraceMs?: number
  events?: TaskEvents
}

interface Entry {
  item: QueueItem
  templateName: string
  userId: number | null
  status: string
  start: string | null
  end: string | null
  version: string | null
  secret: Record<string, unknown>
  handle: JobHandle | null
  stopRequested: boolean
  /** Status writes of this task, in order. */
  chain: Promise<void>
  done: Promise<void> | null
}

const tplNames = async (db: Db, id: number): Promise<string> =>
  (await db.kysely.selectFrom('template').select('name').where('id', '=', id).executeTakeFirst())
    ?.name ?? ''

/**
 * The in-memory queue of one server: starts a task the moment a slot is free (on creation,
 * on finish, on `rescan()`), never on a timer, and owns every status change.
 */
export class TaskQueue {
  readonly events: TaskEvents
  readonly logs: LogBuffer
  private readonly queue: Entry[] = []
  private readonly active = new Map<number, Entry>()
  private accepting = true
  private scanning = false
  private rescanAgain = false

  constructor(private readonly deps: TaskQueueDeps) {
    this.events = deps.events ?? new TaskEvents()
    this.logs = new LogBuffer(deps.db, this.events, {
      onError: (error) => deps.log.error({ err: error }, 'Could not store task output'),
    })
  }

  get isAccepting(): boolean {
    return this.accepting
  }

  /** A line of the server's own in the task's log. */
  private say(item: { taskId: number; projectId: number }, output: string): void {
    this.logs.append(item.taskId, item.projectId, [{ time: nowIso(), output }])
  }

  /** Queues a stored `waiting` task. */
  async add(row: TaskRow, secret: Record<string, unknown> = {}): Promise<void> {
    const entry: Entry = {
      item: { taskId: row.id, projectId: row.project_id, templateId: row.template_id },
      templateName: await tplNames(this.deps.db, row.template_id),
      userId: row.user_id,
      status: row.status,
      start: row.start,
      end: row.end,
      version: row.version,
      secret,
      handle: null,
      stopRequested: false,
      chain: Promise.resolve(),
      done: null,
    }
    this.queue.push(entry)
    this.say(entry.item, `Task ${row.id} added to queue`)
    this.events.emit('update', this.updateMessage(entry))
    this.rescan()
  }

  /** Looks for tasks that can start now. Safe to call at any time, as often as needed. */
  rescan(): void {
    if (this.scanning) {
      this.rescanAgain = true
      return
    }
    this.scanning = true
    void this.scan().finally(() => {
      this.scanning = false
      if (this.rescanAgain) {
        this.rescanAgain = false
        this.rescan()
      }
    })
  }

  private async scan(): Promise<void> {
    if (!this.accepting || this.queue.length === 0) return
    const projectIds = [...new Set(this.queue.map((e) => e.item.projectId))]
    let rows: Array<{ id: number; max_parallel_tasks: number }>
    try {
      rows = await this.deps.db.kysely
        .selectFrom('project')
        .select(['id', 'max_parallel_tasks'])
        .where('id', 'in', projectIds)
        .execute()
    } catch (error) {
      this.deps.log.error({ err: error }, 'Could not read project task limits')
      return
    }
    if (!this.accepting) return
    const picked = pickRunnable(
      this.queue.map((e) => e.item),
      [...this.active.values()].map((e) => e.item),
      {
        global: this.deps.maxParallelTasks,
        project: new Map(rows.map((r) => [r.id, Number(r.max_parallel_tasks) || 0])),
      },
    )
    for (const item of picked) {
      const index = this.queue.findIndex((e) => e.item.taskId === item.taskId)
      if (index < 0) continue
      const [entry] = this.queue.splice(index, 1)
      if (!entry) continue
      this.active.set(item.taskId, entry)
      entry.done = this.run(entry)
    }
  }

  /** Applies a status change if the state machine allows it; persists and announces it. */
  private change(entry: Entry, to: TaskStatus): boolean {
    if (!canTransition(entry.status, to)) return false
    entry.status = to
    const now = nowIso()
    const set: { status: string; start?: string; end?: string } = { status: to }
    if (to === 'running' && entry.start === null) set.start = entry.start = now
    if (to === 'success' || to === 'error' || to === 'stopped') set.end = entry.end = now
    // The announcement carries the task as it was at this change: by the time the write
    // completes, the task may have moved on, and every step must still be announced once.
    const update = this.updateMessage(entry)
    entry.chain = entry.chain
      .then(async () => {
        await this.deps.db.kysely
          .updateTable('task')
          .set(set)
          .where('id', '=', entry.item.taskId)
          .execute()
      })
      .catch((error) => this.deps.log.error({ err: error }, 'Could not store a task status'))
      .then(() => this.events.emit('update', update))
    return true
  }

  private updateMessage(entry: Entry): TaskUpdateMessage {
    return {
      type: 'update',
      task_id: entry.item.taskId,
      project_id: entry.item.projectId,
      template_id: entry.item.templateId,
      status: entry.status,
      start: entry.start,
      end: entry.end,
      version: entry.version,
    }
  }

  private async run(entry: Entry): Promise<void> {
    const { item } = entry
    const db = this.deps.db
    let result: JobResult
    try {
      this.change(entry, 'starting')
      this.say(item, `Started: ${item.taskId}`)
      this.say(item, `Run TaskRunner with template: ${entry.templateName}`)
      const row = await db.kysely
        .selectFrom('task')
        .selectAll()
        .where('id', '=', item.taskId)
        .executeTakeFirstOrThrow()
      const user =
        row.user_id !== null
          ? await db.kysely
              .selectFrom('user')
              .select('username')
              .where('id', '=', row.user_id)
              .executeTakeFirst()
          : undefined
      const spec = await buildJobSpec({
        db,
        box: this.deps.box,
        dataDir: this.deps.dataDir,
        task: row,
        secret: entry.secret,
        username: user?.username ?? '',
        webHost: this.deps.webHost,
      })
      entry.secret = {}
      if (entry.stopRequested) {
        result = 'stopped'
      } else {
        const handle = this.deps.runJob(
          spec,
          {
            onLines: (lines) => this.logs.append(item.taskId, item.projectId, lines),
            outputBacklog: () => this.logs.backlog(item.taskId),
            onStatus: (status) => {
              if (status === 'running' && entry.status === 'running') return
              this.change(entry, status)
            },
            onCommit: (hash, message) => {
              entry.chain = entry.chain
                .then(async () => {
                  await db.kysely
                    .updateTable('task')
                    .set({ commit_hash: hash, commit_message: message })
                    .where('id', '=', item.taskId)
                    .execute()
                })
                .catch((error) => this.deps.log.error({ err: error }, 'Could not store a commit'))
            },
          },
          { graceMs: this.deps.graceMs ?? 15_000 },
        )
        entry.handle = handle
        result = await handle.done
      }
    } catch (error) {
      const message =
        error instanceof PreparationError || error instanceof Error ? error.message : String(error)
      this.say(item, `Failed to run task: ${message}`)
      if (!(error instanceof PreparationError)) {
        this.deps.log.error({ err: error }, `Task ${item.taskId} failed`)
      }
      result = 'error'
    }
    await this.finish(entry, finalStatus(entry.status, result, entry.stopRequested))
  }

  private async finish(entry: Entry, status: TaskStatus): Promise<void> {
    const { item } = entry
    await this.logs.close(item.taskId)
    const changed = this.change(entry, status)
    await entry.chain
    this.active.delete(item.taskId)
    if (changed || status === 'stopped') {
      try {
        await insertEvent(this.deps.db.kysely, {
          projectId: item.projectId,
          userId: null,
          objectType: 'task',
          objectId: item.taskId,
          description: `Task ID ${item.taskId} (${entry.templateName}) finished - ${entry.status.toUpperCase()}`,
        })
        if (entry.status === 'success') await this.autorun(entry)
      } catch (error) {
        this.deps.log.error({ err: error }, 'Could not finish a task')
      }
    }
    this.rescan()
  }

  /** Queues the deploy templates that run after a successful build of this template. */
  private async autorun(entry: Entry): Promise<void> {
    if (!this.accepting) return
    const db = this.deps.db
    const templates = await db.kysely
      .selectFrom('template')
      .select(['id'])
      .where('project_id', '=', entry.item.projectId)
      .where('build_template_id', '=', entry.item.templateId)
      .where('autorun', '=', 1)
      .orderBy('id')
      .execute()
    for (const t of templates) {
      const row = await insertTaskRow(db, {
        project_id: entry.item.projectId,
        template_id: t.id,
        status: 'waiting',
        build_task_id: entry.item.taskId,
        user_id: null,
      })
      await insertEvent(db.kysely, {
        projectId: row.project_id,
        userId: null,
        objectType: 'task',
        objectId: row.id,
        description: `Task ID ${row.id} queued for running`,
      })
      await this.add(row)
    }
  }

  /** Stops a task: queued ones at once, running ones through the executor. */
  async stop(projectId: number, taskId: number, force: boolean): Promise<void> {
    const queuedAt = this.queue.findIndex(
      (e) => e.item.taskId === taskId && e.item.projectId === projectId,
    )
    if (queuedAt >= 0) {
      const [entry] = this.queue.splice(queuedAt, 1)
      if (entry) {
        entry.stopRequested = true
        await this.finish(entry, 'stopped')
      }
      return
    }
    const entry = this.active.get(taskId)
    if (entry && entry.item.projectId === projectId) {
      entry.stopRequested = true
      if (force) {
        entry.handle?.stop(true)
        await this.logs.flush(taskId)
        this.change(entry, 'stopped')
      } else {
        this.change(entry, 'stopping')
        entry.handle?.stop(false)
      }
      await entry.chain
      return
    }
    await this.stopStored(projectId, taskId)
  }

  /** A task no queue knows about (left by an earlier process) is marked stopped if unfinished. */
  private async stopStored(projectId: number, taskId: number): Promise<void> {
    const row = await this.deps.db.kysely
      .selectFrom('task')
      .select(['id', 'status', 'template_id'])
      .where('id', '=', taskId)
      .where('project_id', '=', projectId)
      .executeTakeFirst()
    if (!row || !canTransition(row.status, 'stopped')) return
    const end = nowIso()
    await this.deps.db.kysely
      .updateTable('task')
      .set({ status: 'stopped', end })
      .where('id', '=', taskId)
      .execute()
    const full = await this.deps.db.kysely
      .selectFrom('task')
      .select(['start', 'version'])
      .where('id', '=', taskId)
      .executeTakeFirstOrThrow()
    this.events.emit('update', {
      type: 'update',
      task_id: taskId,
      project_id: projectId,
      template_id: row.template_id,
      status: 'stopped',
      start: full.start,
      end,
      version: full.version,
    })
    await insertEvent(this.deps.db.kysely, {
      projectId,
      userId: null,
      objectType: 'task',
      objectId: taskId,
      description: `Task ID ${taskId} (${await tplNames(this.deps.db, row.template_id)}) finished - STOPPED`,
    })
  }

  private waitingForConfirmation(projectId: number, taskId: number): Entry {
    const entry = this.active.get(taskId)
    if (!entry || entry.item.projectId !== projectId || entry.status !== 'waiting_confirmation') {
      throw new BadRequestError('Task is not waiting for confirmation')
    }
    return entry
  }

  async confirm(projectId: number, taskId: number): Promise<void> {
    const entry = this.waitingForConfirmation(projectId, taskId)
    this.change(entry, 'confirmed')
    entry.handle?.confirm()
    await entry.chain
  }

  async reject(projectId: number, taskId: number): Promise<void> {
    const entry = this.waitingForConfirmation(projectId, taskId)
    this.change(entry, 'rejected')
    entry.handle?.reject()
    await entry.chain
  }

  /** Whether the task is queued or running in this process. */
  isActive(taskId: number): boolean {
    return this.active.has(taskId) || this.queue.some((e) => e.item.taskId === taskId)
  }

  /** Queued tasks, then running ones, for the server-wide list. */
  async listActive(): Promise<ActiveTask[]> {
    const entries = [
      ...this.queue.map((e) => ({ e, location: 'queue' })),
      ...[...this.active.values()].map((e) => ({ e, location: 'running' })),
    ]
    const userIds = [
      ...new Set(entries.map(({ e }) => e.userId).filter((v): v is number => v !== null)),
    ]
    const users = userIds.length
      ? await this.deps.db.kysely
          .selectFrom('user')
          .select(['id', 'username'])
          .where('id', 'in', userIds)
          .execute()
      : []
    const names = new Map(users.map((u) => [u.id, u.username]))
    return entries.map(({ e, location }) => ({
      task_id: e.item.taskId,
      project_id: e.item.projectId,
      ...(e.userId !== null && names.has(e.userId) ? { username: names.get(e.userId) } : {}),
      status: e.status,
      location,
    }))
  }

  /**
   * On start: tasks whose process died with the previous server end in error (stopped when
   * they were being stopped) with a line saying so; waiting tasks are queued again in order.
   */
  async recover(): Promise<void> {
    const db = this.deps.db
    const interrupted = await db.kysely
      .selectFrom('task')
      .selectAll()
      .where('status', 'in', [...INTERRUPTED_STATUSES])
      .orderBy('id')
      .execute()
    for (const row of interrupted) {
      const entry = await this.entryOf(row)
      // A task someone was already stopping ends stopped; any other one ends in error.
      const to: TaskStatus = row.status === 'stopping' ? 'stopped' : 'error'
      this.say(entry.item, 'Task was interrupted by a server restart')
      await this.logs.close(row.id)
      this.change(entry, to)
      await entry.chain
      await insertEvent(db.kysely, {
        projectId: row.project_id,
        userId: null,
        objectType: 'task',
        objectId: row.id,
        description: `Task ID ${row.id} (${entry.templateName}) finished - ${to.toUpperCase()}`,
      })
    }
    const waiting = await db.kysely
      .selectFrom('task')
      .selectAll()
      .where('status', '=', 'waiting')
      .orderBy('id')
      .execute()
    for (const row of waiting) await this.add(row)
  }

  private async entryOf(row: TaskRow): Promise<Entry> {
    return {
      item: { taskId: row.id, projectId: row.project_id, templateId: row.template_id },
      templateName: await tplNames(this.deps.db, row.template_id),
      userId: row.user_id,
      status: row.status,
      start: row.start,
      end: row.end,
      version: row.version,
      secret: {},
      handle: null,
      stopRequested: false,
      chain: Promise.resolve(),
      done: null,
    }
  }

  /**
   * Stops taking tasks, asks running ones to stop, waits for them (force-killing after the
   * grace period) and writes every buffered line. Waiting tasks stay waiting for next start.
   */
  async shutdown(): Promise<void> {
    this.accepting = false
    const grace = this.deps.shutdownGraceMs ?? 5_000
    const running = [...this.active.values()]
    for (const entry of running) {
      entry.stopRequested = true
      this.change(entry, 'stopping')
      entry.handle?.stop(false)
    }
    const all = Promise.all(running.map((e) => e.done ?? Promise.resolve()))
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), grace)
    })
    if ((await Promise.race([all, timeout])) === 'timeout') {
      for (const entry of running) entry.handle?.stop(true)
      await Promise.race([all, new Promise((r) => setTimeout(r, 2_000))])
    }
    clearTimeout(timer)
    await this.logs.flushAll()
    await Promise.all(running.map((e) => e.chain))
    this.logs.stop()
  }
}

export function createTaskQueue(deps: TaskQueueDeps): TaskQueue {
  return new TaskQueue(deps)
}
