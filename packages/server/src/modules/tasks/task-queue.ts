import { randomUUID } from 'node:crypto'
import type {
  ActiveTask,
  JobLine,
  JobResult,
  JobSpec,
  JobStatus,
  RunnerJobProgress,
  TaskStatus,
  TaskUpdateMessage,
} from '@flagman/contract'
import { isFinished, parseRunnerTags } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { nowIso } from '@flagman/db'
import type { FastifyBaseLogger } from 'fastify'
import type { SecretBox } from '../../lib/secret-box.js'
import { BadRequestError } from '../../platform/errors.js'
import type { TaskMetrics } from '../metrics/hooks.js'
import { insertEvent } from '../events/events.repository.js'
import { planDispatch, type BusyTask, type RunnerSlots, type WaitingTask } from './dispatch.js'
import { releaseTaskLocks } from '../terraform/lock-store.js'
import { revokeTaskAliases } from '../terraform/alias-store.js'
import { buildJobSpec, PreparationError } from './job-spec.js'
import { LogBuffer } from './log-buffer.js'
import type { RunnerNews, RunnerWork } from './runner-work.js'
import { RunnerSignals } from './runner-signals.js'
import { TaskEvents } from './task-events.js'
import {
  claimedTimings,
  clockNow,
  localStartTimings,
  runnerStartedTimings,
  type ExecutorPhases,
} from './start-timings.js'
import {
  BUSY_STATUSES,
  canTransition,
  finalStatus,
  isTaskStatus,
  INTERRUPTED_STATUSES,
} from './task-state.js'
import { insertTaskRow, type TaskRow } from './tasks.repository.js'

export interface JobHooks {
  onLines(lines: JobLine[]): void
  onStatus(status: JobStatus): void
  onCommit(hash: string, message: string): void
  outputBacklog?(): Promise<void> | null
  onStarted?(phases: ExecutorPhases): void
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
  /** Address the server is reached at (FLAGMAN_WEB_HOST or the local one), read when needed. */
  publicBase: () => string
  maxParallelTasks: number
  log: FastifyBaseLogger
  runJob: RunJob
  /** Tasks without a runner tag may run in this process (default true). */
  localExecution?: boolean
  /** Seconds without a heartbeat after which a runner is lost (default 60). */
  runnerTimeoutSeconds?: number
  /** Grace between SIGTERM and SIGKILL on a normal stop. */
  graceMs?: number
  /** Grace given to running tasks when the server shuts down. */
  shutdownGraceMs?: number
  events?: TaskEvents
  /** This server instance's id (what `task.claimed_by` names); a new one by default. */
  instanceId?: string
  /** The other server instances on the same database; none by default. */
  cluster?: QueueCluster
  /** Told of start timings and stored output; nothing is measured without it. */
  metrics?: TaskMetrics
}

/** A stop or confirmation for a task another instance runs. */
export interface TaskControl {
  op: 'stop' | 'confirm' | 'reject'
  task_id: number
  project_id: number
  force: boolean
}

/** What the queue needs of the other server instances that share its database. */
export interface QueueCluster {
  /** Tells the other instances that a slot may have freed or a task was queued. */
  queueChanged(): void
  /** Runs a dispatch pass while no other instance runs one (limits hold cluster-wide). */
  dispatching(pass: () => Promise<void>): Promise<void>
  /** Hands a control to the instance running the task; false when that instance is gone. */
  forward(instanceId: string, control: TaskControl): Promise<boolean>
}

const ALONE: QueueCluster = {
  queueChanged: () => {},
  dispatching: (pass) => pass(),
  forward: async () => false,
}

/** A task this process runs itself. */
interface LocalTask {
  taskId: number
  projectId: number
  templateId: number
  templateName: string
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
  /** The stored row as claimed, which the job is built from. */
  row: TaskRow
  username: string
  claimedAt: number
  jobReadyAt: number
  /** Columns to write with the next write of the task (commit, start timings). */
  unsaved: Partial<Pick<TaskRow, 'commit_hash' | 'commit_message' | 'start_timings'>>
  /** The next output is the app's first: it is stored and shown at once, not batched. */
  firstOutput: boolean
  /** The job was given a Terraform state backend, whose access ends with the task. */
  usesStateBackend: boolean
}

/** What follows a task's end needs of it. */
interface FinishedTask {
  projectId: number
  templateId: number
  templateName: string
  status: string
  usesStateBackend: boolean
}

/** Most waiting tasks one dispatch pass looks at; the rest wait for the next pass. */
const SCAN_BATCH = 1000

/**
 * The task queue. Its truth is the task table: a waiting task is a row in `waiting`; a claim
 * is a compare-and-set from `waiting` to `starting` that names the runner (or this process,
 * in `claimed_by`), so runners and several server processes share one queue and no task is
 * ever started twice. Dispatch runs whenever something may have freed or added a slot (a
 * task queued or finished, a runner heard from or changed), never on a timer; the only timer
 * is the heartbeat check that finds lost runners.
 */
export class TaskQueue implements RunnerWork {
  readonly events: TaskEvents
  readonly logs: LogBuffer
  /** Identifies this server instance in `task.claimed_by`. */
  readonly node: string
  private readonly cluster: QueueCluster
  private readonly local = new Map<number, LocalTask>()
  private readonly signals = new RunnerSignals()
  /** Queue reasons as last written, so an unchanged reason is not written again. */
  private readonly reasons = new Map<number, string>()
  private accepting = true
  /** Set once the queue shuts down: nothing new is queued from here. */
  private closing = false
  private scanning = false
  private rescanAgain = false
  private sweepTimer: NodeJS.Timeout | null = null
  private readonly localExecution: boolean
  private readonly runnerTimeoutMs: number

  constructor(private readonly deps: TaskQueueDeps) {
    this.events = deps.events ?? new TaskEvents()
    this.logs = new LogBuffer(deps.db, this.events, {
      onError: (error) => deps.log.error({ err: error }, 'Could not store task output'),
      metrics: deps.metrics,
    })
    this.localExecution = deps.localExecution ?? true
    this.node = deps.instanceId ?? randomUUID()
    this.cluster = deps.cluster ?? ALONE
    this.runnerTimeoutMs = (deps.runnerTimeoutSeconds ?? 60) * 1000
  }

  get isAccepting(): boolean {
    return this.accepting
  }

  /**
   * Whether tasks may still be queued through this instance: until it shuts down, also while
   * it drains (another instance, or this one after its restart, runs them).
   */
  get isOpen(): boolean {
    return !this.closing
  }

  /** Tasks this process runs now. */
  get runningHere(): number {
    return this.local.size
  }

  /**
   * Stops taking tasks while the running ones go on (a draining instance): waiting tasks,
   * and those queued from now on, are left to the other instances, which are told at once.
   */
  stopAccepting(): void {
    if (!this.accepting) return
    this.accepting = false
    this.cluster.queueChanged()
  }

  /** A line of the server's own in the task's log. */
  private say(taskId: number, projectId: number, output: string): void {
    this.logs.append(taskId, projectId, [{ time: nowIso(), output }])
  }

  /** Queues a stored `waiting` task; run-time secret values wait encrypted in its row. */
  async add(row: TaskRow, secret: Record<string, unknown> = {}): Promise<void> {
    if (Object.keys(secret).length > 0) {
      await this.deps.db.kysely
        .updateTable('task')
        .set({ secret: this.deps.box.encrypt(JSON.stringify(secret)) })
        .where('id', '=', row.id)
        .execute()
    }
    this.say(row.id, row.project_id, `Task ${row.id} added to queue`)
    this.events.emit('update', rowUpdate(row))
    this.rescan()
  }

  /**
   * Looks for tasks that can start now, here and (told through the cluster) on the other
   * instances. Safe to call at any time, as often as needed.
   */
  rescan(): void {
    this.cluster.queueChanged()
    this.rescanHere()
  }

  /** Looks for tasks this instance can start now (another instance said the queue changed). */
  rescanHere(): void {
    if (this.scanning) {
      this.rescanAgain = true
      return
    }
    this.scanning = true
    void this.cluster
      .dispatching(() => this.scan())
      .catch((error) => this.deps.log.error({ err: error }, 'Could not dispatch tasks'))
      .finally(() => {
        this.scanning = false
        if (this.rescanAgain) {
          this.rescanAgain = false
          this.rescanHere()
        }
      })
  }

  private async scan(): Promise<void> {
    if (!this.accepting) return
    const db = this.deps.db.kysely
    const waitingRows = await db
      .selectFrom('task')
      .innerJoin('template', 'template.id', 'task.template_id')
      .select([
        'task.id',
        'task.project_id',
        'task.template_id',
        'task.queue_reason',
        'task.created',
        'template.runner_tag',
      ])
      .where('task.status', '=', 'waiting')
      .orderBy('task.id')
      .limit(SCAN_BATCH)
      .execute()
    if (waitingRows.length === 0) return
    const busyRows = await db
      .selectFrom('task')
      .select(['id', 'project_id', 'template_id', 'runner_id', 'claimed_by'])
      .where('status', 'in', [...BUSY_STATUSES])
      .execute()
    const projectIds = [...new Set(waitingRows.map((r) => r.project_id))]
    const projects = await db
      .selectFrom('project')
      .select(['id', 'max_parallel_tasks'])
      .where('id', 'in', projectIds)
      .execute()
    const runners = await this.availableRunners()
    if (!this.accepting) return

    const waiting: WaitingTask[] = waitingRows.map((r) => ({
      taskId: r.id,
      projectId: r.project_id,
      templateId: r.template_id,
      runnerTag: r.runner_tag || null,
    }))
    const busy: BusyTask[] = busyRows.map((r) => ({
      taskId: r.id,
      projectId: r.project_id,
      templateId: r.template_id,
      runnerId: r.runner_id,
    }))
    const plan = planDispatch(waiting, busy, runners, {
      global: this.deps.maxParallelTasks,
      globalBusy: busyRows.filter((r) => r.runner_id !== null || r.claimed_by === this.node).length,
      project: new Map(projects.map((p) => [p.id, Number(p.max_parallel_tasks) || 0])),
      localExecution: this.localExecution,
    })
    const created = new Map(waitingRows.map((r) => [r.id, r.created]))
    // Claims are independent compare-and-sets: none waits for another's round trips.
    await Promise.all(
      plan.placements.map((placement) => {
        const when = created.get(placement.taskId)!
        return placement.target === 'local'
          ? this.claimLocal(placement.taskId, when)
          : this.claimForRunner(placement.taskId, placement.runnerId, when)
      }),
    )
    for (const row of waitingRows) {
      const reason = plan.reasons.get(row.id) ?? null
      const known = this.reasons.get(row.id) ?? row.queue_reason
      if (reason === null || reason === known) continue
      this.reasons.set(row.id, reason)
      await db
        .updateTable('task')
        .set({ queue_reason: reason })
        .where('id', '=', row.id)
        .where('status', '=', 'waiting')
        .execute()
      this.say(row.id, row.project_id, reason)
    }
  }

  /** Active runners with their tags and slots; `available` when heard from lately. */
  private async availableRunners(): Promise<RunnerSlots[]> {
    const rows = await this.deps.db.kysely
      .selectFrom('runner')
      .select(['id', 'project_id', 'tag', 'max_parallel_tasks', 'touched', 'active'])
      .where('active', '=', 1)
      .execute()
    const cutoff = Date.now() - this.runnerTimeoutMs
    return rows.map((r) => ({
      id: r.id,
      projectId: r.project_id,
      tags: parseRunnerTags(r.tag),
      maxParallelTasks: Number(r.max_parallel_tasks) || 0,
      available: r.touched !== null && Date.parse(r.touched) > cutoff,
    }))
  }

  /** Claims a waiting task for this process; false when another claim came first. */
  private async claim(
    taskId: number,
    runnerId: number | null,
    created: string,
    claimedAt: number,
  ): Promise<boolean> {
    const result = await this.deps.db.kysely
      .updateTable('task')
      .set({
        status: 'starting',
        runner_id: runnerId,
        claimed_by: runnerId === null ? this.node : null,
        queue_reason: null,
        // A runner's task shows its time in the queue until the runner reports it running.
        ...(runnerId === null
          ? {}
          : { start_timings: JSON.stringify(claimedTimings(created, claimedAt)) }),
      })
      .where('id', '=', taskId)
      .where('status', '=', 'waiting')
      .executeTakeFirst()
    this.reasons.delete(taskId)
    return Number(result.numUpdatedRows) === 1
  }

  private async claimLocal(taskId: number, created: string): Promise<void> {
    const claimedAt = clockNow()
    if (!(await this.claim(taskId, null, created, claimedAt))) return
    // The row with what its log and job need, in one round trip. The secret values go into
    // this process's memory only; the write of its start (or end) clears them from the database.
    const found = await this.deps.db.kysely
      .selectFrom('task')
      .innerJoin('template', 'template.id', 'task.template_id')
      .leftJoin('user', 'user.id', 'task.user_id')
      .selectAll('task')
      .select(['template.name as template_name', 'user.username as user_name'])
      .where('task.id', '=', taskId)
      .executeTakeFirstOrThrow()
    const { template_name: name, user_name: username, ...row } = found
    const entry: LocalTask = {
      taskId: row.id,
      projectId: row.project_id,
      templateId: row.template_id,
      templateName: name,
      row,
      username: username ?? '',
      claimedAt,
      jobReadyAt: claimedAt,
      unsaved: {},
      firstOutput: false,
      usesStateBackend: false,
      status: 'starting',
      start: row.start,
      end: row.end,
      version: row.version,
      secret: this.openSecret(row.secret),
      handle: null,
      stopRequested: false,
      chain: Promise.resolve(),
      done: null,
    }
    this.local.set(taskId, entry)
    this.events.emit('update', this.localUpdate(entry))
    entry.done = this.run(entry)
  }

  private async claimForRunner(taskId: number, runnerId: number, created: string): Promise<void> {
    if (!(await this.claim(taskId, runnerId, created, clockNow()))) return
    const db = this.deps.db.kysely
    const row = await db
      .selectFrom('task')
      .selectAll()
      .where('id', '=', taskId)
      .executeTakeFirstOrThrow()
    const runner = await db
      .selectFrom('runner')
      .select(['id', 'name', 'webhook'])
      .where('id', '=', runnerId)
      .executeTakeFirst()
    this.say(
      taskId,
      row.project_id,
      `Task #${taskId} is assigned to runner #${runnerId}${runner?.name ? ` (${runner.name})` : ''}`,
    )
    this.events.emit('update', rowUpdate(row))
    this.signals.notify(runnerId)
    if (runner?.webhook) void this.callRunnerWebhook(row, runnerId, runner.webhook)
  }

  /** Tells a runner's webhook that a task waits for it; a refusal ends the task. */
  private async callRunnerWebhook(row: TaskRow, runnerId: number, url: string): Promise<void> {
    let problem: string | null = null
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          action: 'start',
          project_id: row.project_id,
          task_id: row.id,
          template_id: row.template_id,
          runner_id: runnerId,
        }),
        signal: AbortSignal.timeout(10_000),
      })
      if (response.status !== 200 && response.status !== 204) {
        problem = `answered ${response.status}`
      }
    } catch (error) {
      problem = `could not be reached (${(error as Error).message})`
    }
    if (problem === null) return
    this.say(row.id, row.project_id, `The webhook of runner #${runnerId} ${problem}`)
    await this.endStored(row.id, ['starting'], 'error')
  }

  private openSecret(stored: string | null): Record<string, unknown> {
    if (!stored) return {}
    try {
      return JSON.parse(this.deps.box.decrypt(stored)) as Record<string, unknown>
    } catch (error) {
      this.deps.log.error({ err: error }, 'Could not read the secret values of a task')
      return {}
    }
  }

  // ── Tasks this process runs ────────────────────────────────────────────────────────

  /** Applies a status change if the state machine allows it; persists and announces it. */
  private change(entry: LocalTask, to: TaskStatus): boolean {
    if (!canTransition(entry.status, to)) return false
    entry.status = to
    const now = nowIso()
    const set: { status: string; start?: string; end?: string; secret?: null } = { status: to }
    if (to === 'running' && entry.start === null) set.start = entry.start = now
    const ended = to === 'success' || to === 'error' || to === 'stopped'
    if (ended) set.end = entry.end = now
    // The job holds the secret values from its start on (and nothing after its end): the
    // database no longer does.
    if (set.start !== undefined || ended) set.secret = null
    // The announcement carries the task as it was at this change: by the time the write
    // completes, the task may have moved on, and every step must still be announced once.
    const update = this.localUpdate(entry)
    this.save(entry, set, () => this.events.emit('update', update))
    return true
  }

  /** Writes the columns with whatever else the task has unsaved, in order with its other writes. */
  private save(entry: LocalTask, set: Partial<TaskRow>, then?: () => void): void {
    entry.chain = entry.chain
      .then(async () => {
        const columns = { ...entry.unsaved, ...set }
        entry.unsaved = {}
        // Only while this instance owns the task: one taken for dead has lost it.
        await this.deps.db.kysely
          .updateTable('task')
          .set(columns)
          .where('id', '=', entry.taskId)
          .where('claimed_by', '=', this.node)
          .execute()
      })
      .catch((error) => this.deps.log.error({ err: error }, 'Could not store a task status'))
      .then(() => then?.())
  }

  /** The app's first process runs: its start timings are stored, and its first output shown at once. */
  private started(entry: LocalTask, phases: ExecutorPhases): void {
    const timings = localStartTimings({
      created: entry.row.created,
      claimedAt: entry.claimedAt,
      jobReadyAt: entry.jobReadyAt,
      startedAt: clockNow(),
      phases,
    })
    entry.firstOutput = true
    this.deps.metrics?.taskStarted(timings)
    this.save(entry, { start_timings: JSON.stringify(timings) })
  }

  private localUpdate(entry: LocalTask): TaskUpdateMessage {
    return {
      type: 'update',
      task_id: entry.taskId,
      project_id: entry.projectId,
      template_id: entry.templateId,
      status: entry.status,
      start: entry.start,
      end: entry.end,
      version: entry.version,
    }
  }

  private async run(entry: LocalTask): Promise<void> {
    let result: JobResult
    try {
      this.say(entry.taskId, entry.projectId, `Started: ${entry.taskId}`)
      this.say(entry.taskId, entry.projectId, `Run TaskRunner with template: ${entry.templateName}`)
      const spec = await this.buildSpec(entry.row, entry.secret, entry.username)
      entry.secret = {}
      entry.jobReadyAt = clockNow()
      entry.usesStateBackend = spec.terraform.backend !== null
      if (entry.stopRequested) {
        result = 'stopped'
      } else {
        const handle = this.deps.runJob(
          spec,
          {
            onLines: (lines) => {
              this.logs.append(entry.taskId, entry.projectId, lines)
              if (entry.firstOutput) {
                entry.firstOutput = false
                void this.logs.flush(entry.taskId)
              }
            },
            outputBacklog: () => this.logs.backlog(entry.taskId),
            onStarted: (phases) => this.started(entry, phases),
            onStatus: (status) => {
              if (status === 'running' && entry.status === 'running') return
              this.change(entry, status)
            },
            // Stored with the start timings (or the end, whichever comes first).
            onCommit: (hash, message) => {
              entry.unsaved.commit_hash = hash
              entry.unsaved.commit_message = message
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
      this.say(entry.taskId, entry.projectId, `Failed to run task: ${message}`)
      if (!(error instanceof PreparationError)) {
        this.deps.log.error({ err: error }, `Task ${entry.taskId} failed`)
      }
      result = 'error'
    }
    await this.finishLocal(entry, finalStatus(entry.status, result, entry.stopRequested))
  }

  private async buildSpec(
    row: TaskRow,
    secret: Record<string, unknown>,
    knownUsername?: string,
  ): Promise<JobSpec> {
    const db = this.deps.db
    let username = knownUsername
    if (username === undefined && row.user_id !== null) {
      const user = await db.kysely
        .selectFrom('user')
        .select('username')
        .where('id', '=', row.user_id)
        .executeTakeFirst()
      username = user?.username
    }
    return buildJobSpec({
      db,
      box: this.deps.box,
      dataDir: this.deps.dataDir,
      task: row,
      secret,
      username: username ?? '',
      webHost: this.deps.webHost,
      publicBase: this.deps.publicBase(),
    })
  }

  private async storeCommit(taskId: number, hash: string, message: string): Promise<void> {
    await this.deps.db.kysely
      .updateTable('task')
      .set({ commit_hash: hash, commit_message: message })
      .where('id', '=', taskId)
      .execute()
  }

  private async finishLocal(entry: LocalTask, status: TaskStatus): Promise<void> {
    await this.logs.close(entry.taskId)
    const changed = this.change(entry, status)
    await entry.chain
    this.local.delete(entry.taskId)
    // The slot is free once the status is stored: the next task need not wait for the rest.
    this.rescan()
    if (changed || status === 'stopped') {
      await this.finished(entry.taskId, {
        projectId: entry.projectId,
        templateId: entry.templateId,
        templateName: entry.templateName,
        status: entry.status,
        usesStateBackend: entry.usesStateBackend,
      })
    }
  }

  /**
   * What follows a task's end: the activity event, and the deploys a build starts. `known`
   * is the task as this process ran it, which spares reading it again.
   */
  private async finished(taskId: number, known?: FinishedTask): Promise<void> {
    const db = this.deps.db.kysely
    try {
      const task = known ?? (await this.finishedTask(taskId))
      if (!task) return
      // The task's own access to its workspace's state ends with it, and so does its lock.
      if (task.usesStateBackend) await this.endStateAccess(taskId, task.projectId)
      await insertEvent(db, {
        projectId: task.projectId,
        userId: null,
        objectType: 'task',
        objectId: taskId,
        description: `Task ID ${taskId} (${task.templateName}) finished - ${task.status.toUpperCase()}`,
      })
      if (task.status === 'success') {
        await this.autorun({ id: taskId, project_id: task.projectId, template_id: task.templateId })
      }
    } catch (error) {
      this.deps.log.error({ err: error }, 'Could not finish a task')
    }
  }

  /** A stored task as `finished` needs it. */
  private async finishedTask(taskId: number): Promise<FinishedTask | null> {
    const row = await this.deps.db.kysely
      .selectFrom('task')
      .innerJoin('template', 'template.id', 'task.template_id')
      .select(['task.project_id', 'task.template_id', 'task.status', 'template.name'])
      .where('task.id', '=', taskId)
      .executeTakeFirst()
    if (!row) return null
    return {
      projectId: row.project_id,
      templateId: row.template_id,
      templateName: row.name,
      status: row.status,
      // Whether a runner's job had one is not known here: its access is ended in any case.
      usesStateBackend: true,
    }
  }

  private async endStateAccess(taskId: number, projectId: number): Promise<void> {
    try {
      await revokeTaskAliases(this.deps.db, taskId)
      if (await releaseTaskLocks(this.deps.db, taskId)) {
        this.say(taskId, projectId, 'The Terraform state lock the task still held was released')
      }
    } catch (error) {
      this.deps.log.error({ err: error }, 'Could not end the state backend access of a task')
    }
  }

  /** Queues the deploy templates that run after a successful build of this template. */
  private async autorun(build: Pick<TaskRow, 'id' | 'project_id' | 'template_id'>): Promise<void> {
    // Queued even while draining: another instance runs them.
    if (this.closing) return
    const db = this.deps.db
    const templates = await db.kysely
      .selectFrom('template')
      .select(['id'])
      .where('project_id', '=', build.project_id)
      .where('build_template_id', '=', build.template_id)
      .where('autorun', '=', 1)
      .orderBy('id')
      .execute()
    for (const t of templates) {
      const row = await insertTaskRow(db, {
        project_id: build.project_id,
        template_id: t.id,
        status: 'waiting',
        build_task_id: build.id,
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

  // ── Status changes of stored tasks (waiting ones, runners' ones) ────────────────────

  /**
   * Moves a stored task from one of `from` to `to`, if it is still in that status (a
   * compare-and-set, so concurrent changes from runners, sweeps and people never clash).
   * Returns the changed row, announced; null when the task had moved on.
   */
  private async transitionStored(
    taskId: number,
    from: readonly string[],
    to: TaskStatus,
    extra: { runner_id?: null; claimed_by?: null } = {},
  ): Promise<TaskRow | null> {
    const db = this.deps.db.kysely
    const row = await db.selectFrom('task').selectAll().where('id', '=', taskId).executeTakeFirst()
    if (!row || !from.includes(row.status) || !canTransition(row.status, to)) return null
    const now = nowIso()
    const set: Record<string, unknown> = { status: to, ...extra }
    if (to === 'running' && row.start === null) set.start = now
    if (isFinished(to)) set.end = now
    // Secret values are no longer needed once the job has them, nor after the end.
    if (to === 'running' || isFinished(to)) set.secret = null
    if (to === 'running' && row.runner_id !== null) {
      const timings = runnerStartedTimings(row.start_timings, row.created, clockNow())
      if (timings !== null) set.start_timings = JSON.stringify(timings)
    }
    const result = await db
      .updateTable('task')
      .set(set)
      .where('id', '=', taskId)
      .where('status', '=', row.status)
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) !== 1) return null
    const changed = { ...row, ...set } as TaskRow
    this.events.emit('update', rowUpdate(changed))
    return changed
  }

  /** Ends a stored task with `to`: its lines written first, then the status, then the event. */
  private async endStored(
    taskId: number,
    from: readonly string[],
    to: TaskStatus,
  ): Promise<TaskRow | null> {
    await this.logs.close(taskId)
    const row = await this.transitionStored(taskId, from, to)
    if (row) {
      await this.finished(taskId)
      this.rescan()
    }
    return row
  }

  /** Stops a task: queued ones at once, local ones through the executor, runners' through the runner. */
  async stop(projectId: number, taskId: number, force: boolean): Promise<void> {
    const entry = this.local.get(taskId)
    if (entry && entry.projectId === projectId) {
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
    const row = await this.deps.db.kysely
      .selectFrom('task')
      .selectAll()
      .where('id', '=', taskId)
      .where('project_id', '=', projectId)
      .executeTakeFirst()
    if (!row || isFinished(row.status)) return
    if (row.status === 'waiting') {
      this.reasons.delete(taskId)
      await this.endStored(taskId, ['waiting'], 'stopped')
      return
    }
    if (row.runner_id !== null) {
      // The runner sees the new status on its next poll (woken now) and ends its process.
      if (force) await this.endStored(taskId, [row.status], 'stopped')
      else await this.transitionStored(taskId, [row.status], 'stopping')
      this.signals.notify(row.runner_id)
      return
    }
    if (row.claimed_by !== null && row.claimed_by !== this.node) {
      const control: TaskControl = { op: 'stop', task_id: taskId, project_id: projectId, force }
      if (await this.cluster.forward(row.claimed_by, control)) return
    }
    // A task no live instance runs (left by an earlier one): marked stopped.
    await this.endStored(taskId, [row.status], 'stopped')
  }

  private async awaitingConfirmation(projectId: number, taskId: number): Promise<TaskRow> {
    const row = await this.deps.db.kysely
      .selectFrom('task')
      .selectAll()
      .where('id', '=', taskId)
      .where('project_id', '=', projectId)
      .executeTakeFirst()
    if (!row || row.status !== 'waiting_confirmation') {
      throw new BadRequestError('Task is not waiting for confirmation')
    }
    return row
  }

  async confirm(projectId: number, taskId: number): Promise<void> {
    await this.answerConfirmation(projectId, taskId, 'confirmed')
  }

  async reject(projectId: number, taskId: number): Promise<void> {
    await this.answerConfirmation(projectId, taskId, 'rejected')
  }

  private async answerConfirmation(
    projectId: number,
    taskId: number,
    to: 'confirmed' | 'rejected',
  ): Promise<void> {
    const entry = this.local.get(taskId)
    if (entry && entry.projectId === projectId) {
      if (entry.status !== 'waiting_confirmation') {
        throw new BadRequestError('Task is not waiting for confirmation')
      }
      this.change(entry, to)
      if (to === 'confirmed') entry.handle?.confirm()
      else entry.handle?.reject()
      await entry.chain
      return
    }
    const row = await this.awaitingConfirmation(projectId, taskId)
    if (row.runner_id === null && row.claimed_by !== null && row.claimed_by !== this.node) {
      const control: TaskControl = {
        op: to === 'confirmed' ? 'confirm' : 'reject',
        task_id: taskId,
        project_id: projectId,
        force: false,
      }
      if (await this.cluster.forward(row.claimed_by, control)) return
    }
    if (row.runner_id === null || !(await this.transitionStored(taskId, [row.status], to))) {
      throw new BadRequestError('Task is not waiting for confirmation')
    }
    this.signals.notify(row.runner_id)
  }

  /** Whether this process runs the task. */
  isActive(taskId: number): boolean {
    return this.local.has(taskId)
  }

  /** Queued tasks, then running ones, for the server-wide list. */
  async listActive(): Promise<ActiveTask[]> {
    const rows = await this.deps.db.kysely
      .selectFrom('task')
      .leftJoin('user', 'user.id', 'task.user_id')
      .select([
        'task.id',
        'task.project_id',
        'task.status',
        'task.runner_id',
        'task.queue_reason',
        'user.username',
      ])
      .where('task.status', 'in', ['waiting', ...BUSY_STATUSES])
      .orderBy('task.id')
      .execute()
    const queued = rows.filter((r) => r.status === 'waiting')
    const running = rows.filter((r) => r.status !== 'waiting')
    return [...queued, ...running].map((r) => ({
      task_id: r.id,
      project_id: r.project_id,
      ...(r.username ? { username: r.username } : {}),
      ...(r.runner_id ? { runner_id: r.runner_id } : {}),
      status: r.status,
      location: r.status === 'waiting' ? 'queue' : 'running',
      ...(r.status === 'waiting' && r.queue_reason ? { queue_reason: r.queue_reason } : {}),
    }))
  }

  // ── Runners ────────────────────────────────────────────────────────────────────────

  async runnerSeen(runnerId: number): Promise<void> {
    await this.touchRunner(runnerId)
    this.rescan()
  }

  private async touchRunner(runnerId: number): Promise<void> {
    await this.deps.db.kysely
      .updateTable('runner')
      .set({ touched: nowIso() })
      .where('id', '=', runnerId)
      .execute()
  }

  async runnerNews(runnerId: number): Promise<RunnerNews> {
    const rows = await this.deps.db.kysely
      .selectFrom('task')
      .selectAll()
      .where('runner_id', '=', runnerId)
      .where('status', 'in', [...BUSY_STATUSES])
      .orderBy('id')
      .execute()
    return {
      current: rows.map((r) => ({ id: r.id, status: r.status })),
      starting: rows.filter((r) => r.status === 'starting'),
    }
  }

  waitForRunnerNews(runnerId: number, ms: number, signal?: AbortSignal): Promise<void> {
    return this.signals.wait(runnerId, ms, signal)
  }

  async jobSpecFor(task: TaskRow): Promise<JobSpec> {
    const spec = await this.buildSpec(task, this.openSecret(task.secret))
    return { ...spec, workRoot: '' }
  }

  async runnerReport(runnerId: number, jobs: RunnerJobProgress[]): Promise<void> {
    const db = this.deps.db.kysely
    const ids = [...new Set(jobs.map((j) => j.ID))]
    const rows = ids.length
      ? await db.selectFrom('task').selectAll().where('id', 'in', ids).execute()
      : []
    const byId = new Map(rows.map((r) => [r.id, r]))
    // Everything is checked before anything is written.
    for (const job of jobs) {
      const row = byId.get(job.ID)
      if (!row || row.runner_id !== runnerId) {
        throw new BadRequestError('Task not assigned to this runner')
      }
      if (!isTaskStatus(job.Status) || job.Status === 'waiting') {
        throw new BadRequestError('Invalid task status')
      }
      if (isFinished(row.status) && (job.LogRecords?.length ?? 0) > 0) {
        throw new BadRequestError(`Task ${row.id} is already finished`)
      }
    }
    await this.touchRunner(runnerId)
    for (const job of jobs) {
      const row = byId.get(job.ID)!
      const lines = (job.LogRecords ?? []).map((r) => ({
        time: validTime(r.time),
        output: r.message,
      }))
      if (lines.length > 0) this.logs.append(row.id, row.project_id, lines)
      if (job.Commit) await this.storeCommit(row.id, job.Commit.hash, job.Commit.message)
      await this.applyRunnerStatus(row, job.Status as TaskStatus)
    }
    // A runner that sends faster than output is stored and delivered waits here.
    await Promise.all(ids.map((id) => this.logs.backlog(id)))
  }

  /** A status a runner reports: only forward moves the state machine allows. */
  private async applyRunnerStatus(row: TaskRow, reported: TaskStatus): Promise<void> {
    const current = await this.deps.db.kysely
      .selectFrom('task')
      .select('status')
      .where('id', '=', row.id)
      .executeTakeFirst()
    if (!current || current.status === reported || isFinished(current.status)) return
    let to: TaskStatus = reported
    if (isFinished(reported)) {
      // A task someone asked to stop ends stopped; a rejected plan ends in error.
      to = finalStatus(current.status, reported as JobResult, false)
      await this.endStored(row.id, [current.status], to)
      return
    }
    if (reported === 'starting') return
    await this.transitionStored(row.id, [current.status], to)
  }

  async runnerRemoved(runnerId: number): Promise<void> {
    const news = await this.runnerNews(runnerId)
    for (const task of news.current) {
      await this.releaseOrEnd(task.id, task.status, runnerId, 'was removed')
    }
    this.signals.notify(runnerId)
    this.rescan()
  }

  /**
   * A task of a runner that is gone: one that had not started its process goes back to the
   * queue; any other one ends in error (stopped when it was being stopped), with a line
   * naming the runner.
   */
  private async releaseOrEnd(
    taskId: number,
    status: string,
    runnerId: number,
    what: string,
  ): Promise<void> {
    const runner = await this.deps.db.kysely
      .selectFrom('runner')
      .select('name')
      .where('id', '=', runnerId)
      .executeTakeFirst()
    const named = `Runner #${runnerId}${runner?.name ? ` (${runner.name})` : ''}`
    const task = await this.deps.db.kysely
      .selectFrom('task')
      .select(['project_id'])
      .where('id', '=', taskId)
      .executeTakeFirst()
    if (!task) return
    if (status === 'starting') {
      const back = await this.transitionStored(taskId, ['starting'], 'waiting', { runner_id: null })
      if (back) {
        this.say(
          taskId,
          task.project_id,
          `${named} ${what} before the task started; it is back in the queue`,
        )
      }
      return
    }
    this.say(taskId, task.project_id, `${named} ${what}; the task can not go on`)
    await this.endStored(taskId, [status], status === 'stopping' ? 'stopped' : 'error')
  }

  /** Finds runners not heard from within the timeout and releases or ends their tasks. */
  private async sweepLostRunners(): Promise<void> {
    const cutoff = new Date(Date.now() - this.runnerTimeoutMs).toISOString()
    const rows = await this.deps.db.kysely
      .selectFrom('task')
      .innerJoin('runner', 'runner.id', 'task.runner_id')
      .select(['task.id', 'task.status', 'task.runner_id', 'runner.touched'])
      .where('task.status', 'in', [...BUSY_STATUSES])
      .where((eb) => eb.or([eb('runner.touched', 'is', null), eb('runner.touched', '<', cutoff)]))
      .orderBy('task.id')
      .execute()
    const seconds = Math.round(this.runnerTimeoutMs / 1000)
    for (const row of rows) {
      await this.releaseOrEnd(
        row.id,
        row.status,
        row.runner_id!,
        `was lost: no heartbeat for ${seconds} seconds`,
      )
    }
    // Tasks of runners deleted behind the queue's back end the same way.
    const orphans = await this.deps.db.kysely
      .selectFrom('task')
      .leftJoin('runner', 'runner.id', 'task.runner_id')
      .select(['task.id', 'task.status', 'task.runner_id'])
      .where('task.status', 'in', [...BUSY_STATUSES])
      .where('task.runner_id', 'is not', null)
      .where('runner.id', 'is', null)
      .execute()
    for (const row of orphans) {
      await this.releaseOrEnd(row.id, row.status, row.runner_id!, 'no longer exists')
    }
  }

  private startSweeping(): void {
    if (this.sweepTimer) return
    const every = Math.max(500, Math.min(10_000, Math.round(this.runnerTimeoutMs / 3)))
    this.sweepTimer = setInterval(() => {
      void this.sweepLostRunners().catch((error) =>
        this.deps.log.error({ err: error }, 'Could not check runners'),
      )
    }, every)
    this.sweepTimer.unref()
  }

  // ── Start and stop ─────────────────────────────────────────────────────────────────

  /** A stop or confirmation another instance handed over, for a task this one runs. */
  async control(control: TaskControl): Promise<void> {
    const entry = this.local.get(control.task_id)
    if (!entry || entry.projectId !== control.project_id) return
    if (control.op === 'stop') await this.stop(control.project_id, control.task_id, control.force)
    else if (control.op === 'confirm') await this.confirm(control.project_id, control.task_id)
    else await this.reject(control.project_id, control.task_id)
  }

  /**
   * On start: tasks a server instance ran itself, whose process died, end in error (stopped
   * when they were being stopped) with a line saying so; the instances still alive keep
   * theirs. Runners' tasks go on (the runner still has them; lost runners are found by their
   * heartbeat). Then waiting tasks are dispatched.
   */
  async recover(): Promise<void> {
    await this.recoverOrphans(new Map())
    this.startSweeping()
    this.rescan()
  }

  /**
   * Ends the tasks of server instances that are gone: `lost` are those just found dead
   * (their tasks get a line naming them); any other task whose instance has no row left was
   * interrupted by a restart. The taken task no longer names an instance, so one that was
   * only paused, and comes back, can not write to it.
   */
  async recoverOrphans(lost: ReadonlyMap<string, string>): Promise<void> {
    const db = this.deps.db
    const interrupted = await db.kysely
      .selectFrom('task')
      .select(['id', 'project_id', 'status', 'claimed_by'])
      .where('status', 'in', [...INTERRUPTED_STATUSES])
      .where('runner_id', 'is', null)
      .where((eb) =>
        eb.or([
          eb('claimed_by', 'is', null),
          eb.not(
            eb.exists(
              eb
                .selectFrom('server_instance')
                .select('server_instance.id')
                .whereRef('server_instance.id', '=', 'task.claimed_by'),
            ),
          ),
        ]),
      )
      .orderBy('id')
      .execute()
    for (const row of interrupted) {
      if (this.local.has(row.id)) continue
      const to: TaskStatus = row.status === 'stopping' ? 'stopped' : 'error'
      const instance = row.claimed_by === null ? undefined : lost.get(row.claimed_by)
      this.say(
        row.id,
        row.project_id,
        instance === undefined
          ? 'Task was interrupted by a server restart'
          : `Task was interrupted: server instance ${instance} stopped answering`,
      )
      await this.logs.close(row.id)
      const ended = await this.transitionStored(row.id, [row.status], to, { claimed_by: null })
      if (ended) await this.finished(row.id)
    }
    if (interrupted.length > 0) this.rescan()
  }

  /**
   * This instance was taken for dead and its tasks went to another: its jobs are killed
   * without a word to the database (their rows are no longer its own).
   */
  abandonLocal(): void {
    for (const entry of this.local.values()) {
      entry.stopRequested = true
      entry.handle?.stop(true)
    }
  }

  /**
   * Stops taking tasks, asks running ones to stop, waits for them (force-killing after the
   * grace period) and writes every buffered line. Waiting tasks stay waiting for next start.
   */
  async shutdown(): Promise<void> {
    this.accepting = false
    this.closing = true
    if (this.sweepTimer) clearInterval(this.sweepTimer)
    this.sweepTimer = null
    this.signals.closeAll()
    const grace = this.deps.shutdownGraceMs ?? 5_000
    const running = [...this.local.values()]
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
    // Slots freed here may start waiting tasks on the other instances.
    this.cluster.queueChanged()
    await new Promise((resolve) => setImmediate(resolve))
  }
}

/** The update message of a stored task. */
function rowUpdate(row: TaskRow): TaskUpdateMessage {
  return {
    type: 'update',
    task_id: row.id,
    project_id: row.project_id,
    template_id: row.template_id,
    status: row.status,
    start: row.start,
    end: row.end,
    version: row.version,
  }
}

/** A runner's line time when it is a valid date, else the server's. */
function validTime(time: string): string {
  const ms = Date.parse(time)
  return Number.isNaN(ms) ? nowIso() : new Date(ms).toISOString()
}

export function createTaskQueue(deps: TaskQueueDeps): TaskQueue {
  return new TaskQueue(deps)
}
