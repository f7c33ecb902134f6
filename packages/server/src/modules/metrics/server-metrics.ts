import type { TaskStartTimings } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { sql } from 'kysely'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { AlertMetrics, RealtimeMetrics, ScheduleMetrics, TaskMetrics } from './hooks.js'

export interface ServerMetricsOptions {
  db: Db
  /** A runner heard from within this many seconds counts as online. */
  runnerTimeoutSeconds: number
}

/** Waits from seconds to an hour: tasks may wait long for a free slot or a runner. */
const WAIT_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600]
/** The log buffer writes every few tens of milliseconds unless the database is slow. */
const LAG_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/**
 * Every metric of one server instance, in a registry of its own (tests run several
 * instances in one process, and their numbers must not mix). It is also each module's
 * hook object: modules report what happened, and database-backed gauges are read when
 * Prometheus scrapes.
 */
export class ServerMetrics implements TaskMetrics, RealtimeMetrics, ScheduleMetrics, AlertMetrics {
  readonly registry = new Registry()
  private readonly queueWait: Histogram
  private readonly startLatency: Histogram
  private readonly linesStoredTotal: Counter
  private readonly logLag: Histogram
  private readonly websocketDropped: Counter
  private readonly scheduleRuns: Counter<'outcome'>
  private readonly alertDeliveries: Counter<'channel' | 'result'>
  private readonly retentionRemoved: Counter<'kind'>
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>
  private clientCount: () => number = () => 0

  constructor(private readonly options: ServerMetricsOptions) {
    const registers = [this.registry]
    collectDefaultMetrics({ register: this.registry, prefix: 'flagman_' })
    const { db } = options

    new Gauge({
      name: 'flagman_tasks',
      help: 'Tasks in the database by status and app.',
      labelNames: ['status', 'app'],
      registers,
      async collect() {
        const rows = await db.kysely
          .selectFrom('task')
          .innerJoin('template', 'template.id', 'task.template_id')
          .select(['task.status', 'template.app', sql<number | string>`count(*)`.as('count')])
          .groupBy(['task.status', 'template.app'])
          .execute()
        this.reset()
        for (const row of rows) this.set({ status: row.status, app: row.app }, Number(row.count))
      },
    })
    this.queueWait = new Histogram({
      name: 'flagman_task_queue_wait_seconds',
      help: 'Time from a task being created to this server claiming it (tasks run by this server).',
      buckets: WAIT_BUCKETS,
      registers,
    })
    this.startLatency = new Histogram({
      name: 'flagman_task_start_seconds',
      help: "Time from a task being created to its app's first process running (tasks run by this server).",
      buckets: WAIT_BUCKETS,
      registers,
    })
    this.linesStoredTotal = new Counter({
      name: 'flagman_log_lines_stored_total',
      help: 'Task output lines written to the database.',
      registers,
    })
    this.logLag = new Histogram({
      name: 'flagman_log_store_lag_seconds',
      help: 'For each write of task output, how long its oldest line waited in the buffer.',
      buckets: LAG_BUCKETS,
      registers,
    })
    const clientCount = (): number => this.clientCount()
    new Gauge({
      name: 'flagman_websocket_clients',
      help: 'Websocket clients connected to /api/ws.',
      registers,
      collect() {
        this.set(clientCount())
      },
    })
    this.websocketDropped = new Counter({
      name: 'flagman_websocket_dropped_clients_total',
      help: 'Websocket clients disconnected because they fell too far behind.',
      registers,
    })
    this.httpDuration = new Histogram({
      name: 'flagman_http_request_duration_seconds',
      help: 'Time to answer HTTP requests, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    })
    const timeoutMs = options.runnerTimeoutSeconds * 1000
    new Gauge({
      name: 'flagman_runners',
      help: 'Runners by state: online when active and heard from within FLAGMAN_RUNNER_TIMEOUT_SECONDS.',
      labelNames: ['state'],
      registers,
      async collect() {
        const rows = await db.kysely.selectFrom('runner').select(['active', 'touched']).execute()
        const now = Date.now()
        let online = 0
        for (const row of rows) {
          if (row.active && row.touched && now - Date.parse(row.touched) < timeoutMs) online += 1
        }
        this.set({ state: 'online' }, online)
        this.set({ state: 'offline' }, rows.length - online)
      },
    })
    new Gauge({
      name: 'flagman_db_pool_connections',
      help: "This instance's database connections: open, idle, waiting (callers waiting for one) and max.",
      labelNames: ['state'],
      registers,
      collect() {
        const use = db.poolUse()
        this.set({ state: 'open' }, use.open)
        this.set({ state: 'idle' }, use.idle)
        this.set({ state: 'waiting' }, use.waiting)
        this.set({ state: 'max' }, use.max)
      },
    })
    new Gauge({
      name: 'flagman_server_instances',
      help: 'Server instances registered in the database.',
      registers,
      async collect() {
        const row = await db.kysely
          .selectFrom('server_instance')
          .select(sql<number | string>`count(*)`.as('count'))
          .executeTakeFirst()
        this.set(Number(row?.count ?? 0))
      },
    })
    this.scheduleRuns = new Counter({
      name: 'flagman_schedule_runs_total',
      help: "Schedules' due times by outcome (started, unchanged, missed, failed).",
      labelNames: ['outcome'],
      registers,
    })
    this.alertDeliveries = new Counter({
      name: 'flagman_alert_deliveries_total',
      help: 'Alert delivery attempts by channel and result (sent, failed).',
      labelNames: ['channel', 'result'],
      registers,
    })
    this.retentionRemoved = new Counter({
      name: 'flagman_retention_removed_total',
      help: 'Rows the retention job removed, by kind (task, event).',
      labelNames: ['kind'],
      registers,
    })
  }

  taskStarted(timings: TaskStartTimings): void {
    this.queueWait.observe(timings.queued_ms / 1000)
    this.startLatency.observe(timings.total_ms / 1000)
  }

  linesStored(count: number, oldestWaitMs: number): void {
    this.linesStoredTotal.inc(count)
    this.logLag.observe(Math.max(0, oldestWaitMs) / 1000)
  }

  countClients(count: () => number): void {
    this.clientCount = count
  }

  slowClientDropped(): void {
    this.websocketDropped.inc()
  }

  scheduleRun(outcome: string): void {
    this.scheduleRuns.inc({ outcome })
  }

  alertDelivery(channel: string, result: 'sent' | 'failed'): void {
    this.alertDeliveries.inc({ channel, result })
  }

  retained(kind: 'task' | 'event', count: number): void {
    if (count > 0) this.retentionRemoved.inc({ kind }, count)
  }
}
