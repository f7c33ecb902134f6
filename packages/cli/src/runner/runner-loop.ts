/*
 * The runner process: long-polls the server for jobs (the poll is also its heartbeat), runs
 * them with the same executor as the server, and reports their lines and statuses.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { JobSpec, RunnerNewJob, RunnerPollAnswer } from '@flagman/contract'
import { runJob, type JobHandle } from '@flagman/executor'
import { Backoff } from './backoff.js'
import { RunnerRefusedError, type ProtocolClient } from './protocol-client.js'
import { Reporter } from './reporter.js'
import { say, sayError } from './say.js'

/** Seconds the server may hold a poll: well under its offline timeout, and a heartbeat. */
const POLL_WAIT_SECONDS = 20
/** A poll that takes this much longer than asked is given up (a dead connection). */
const POLL_SLACK_MS = 15_000
/** Finished jobs are remembered this long, as polls answered before their end may list them. */
const RECENT_MS = 10 * 60_000
/** On shutdown, reports still unsent after this are given up. */
const SHUTDOWN_REPORT_MS = 10_000
const FINISHED = new Set(['success', 'error', 'stopped'])

export const RESTARTED_LINE = 'The runner restarted while this task was running'

export interface RunnerSettings {
  client: ProtocolClient
  /** Sent with each poll when set; they replace what the server has stored. */
  tags?: string[]
  maxParallelTasks?: number
  workDir: string
  /** Grace period between SIGTERM and SIGKILL when a job is stopped. */
  graceMs?: number
}

interface LocalJob {
  id: number
  projectId: number
  spec: JobSpec
  state: 'queued' | 'running' | 'done'
  handle: JobHandle | null
  /** Last status the server gave for the job. */
  serverStatus: string
  /** A stop the server asked for: 'soft' (stopping) or 'force' (stopped). */
  stop: 'soft' | 'force' | null
}

function now(): string {
  return new Date().toISOString()
}

function jobIdOf(job: RunnerNewJob): number | null {
  const id = job.job?.taskId ?? Number(job.task.id)
  return Number.isInteger(id) && id > 0 ? id : null
}

export class RunnerLoop {
  private readonly jobs = new Map<number, LocalJob>()
  private readonly queue: LocalJob[] = []
  private readonly recent = new Map<number, number>()
  /** Jobs of a previous runner process already reported as interrupted. */
  private readonly orphans = new Set<number>()
  private readonly reporter: Reporter
  private readonly abort = new AbortController()
  private readonly backoff = new Backoff()
  private stopping: string | null = null
  private fatalError: RunnerRefusedError | null = null

  constructor(private readonly settings: RunnerSettings) {
    this.reporter = new Reporter(settings.client, {
      refused: (id, reason) => this.refused(id, reason),
      finished: (id) => this.forget(id),
      fatal: (error) => this.fatal(error),
    })
  }

  /** Polls until stopped by `stop` or refused by the server; then ends every job. */
  async run(): Promise<void> {
    mkdirSync(this.settings.workDir, { recursive: true })
    let first = true
    while (this.stopping === null) {
      try {
        // The first poll answers at once, so a wrong token or address shows straight away.
        const wait = first ? 0 : POLL_WAIT_SECONDS
        const answer = await this.settings.client.poll({
          wait,
          tags: this.settings.tags,
          maxParallelTasks: this.settings.maxParallelTasks,
          signal: AbortSignal.any([
            this.abort.signal,
            AbortSignal.timeout(wait * 1000 + POLL_SLACK_MS),
          ]),
        })
        if (first) say('Connected to the server; waiting for jobs')
        first = false
        this.backoff.reset(() => say('The server answers again'))
        this.apply(answer)
      } catch (error) {
        if (this.stopping !== null) break
        if (error instanceof RunnerRefusedError) {
          this.fatal(error)
          break
        }
        const message = error instanceof Error ? error.message : String(error)
        await this.backoff.wait(
          (delay) =>
            sayError(
              `Cannot poll the server (${message}); retrying in ${(delay / 1000).toFixed(1)} s`,
            ),
          this.abort.signal,
        )
      }
    }
    await this.shutdown()
    if (this.fatalError) throw this.fatalError
  }

  /** Ends the runner: jobs are stopped and reported, then `run` resolves. */
  stop(reason: string): void {
    if (this.stopping !== null) {
      // A second signal: no more grace.
      for (const job of this.jobs.values()) job.handle?.stop(true)
      return
    }
    this.stopping = reason
    this.abort.abort()
  }

  private fatal(error: RunnerRefusedError): void {
    if (this.fatalError) return
    this.fatalError = error
    this.stop(error.message)
  }

  private apply(answer: RunnerPollAnswer): void {
    const cutoff = Date.now() - RECENT_MS
    for (const [id, at] of this.recent) if (at < cutoff) this.recent.delete(id)
    const offered = new Set<number>()
    for (const offer of answer.new_jobs) {
      const id = jobIdOf(offer)
      if (id === null) {
        sayError('The server sent a job without a task id; ignored')
        continue
      }
      offered.add(id)
      if (this.jobs.has(id) || this.recent.has(id) || this.orphans.has(id)) continue
      this.accept(id, offer)
    }
    for (const current of answer.CurrentJobs) {
      const job = this.jobs.get(current.id)
      if (job) this.sync(job, current.status)
      else if (
        !offered.has(current.id) &&
        !this.recent.has(current.id) &&
        !this.orphans.has(current.id) &&
        !FINISHED.has(current.status) &&
        // A task not yet started is offered again in new_jobs while the runner is active.
        current.status !== 'starting' &&
        current.status !== 'waiting'
      ) {
        this.orphan(current.id, current.status)
      }
    }
    // A job the server no longer lists ended there (a force stop, or this runner counted as
    // lost meanwhile): its process must not run on unseen.
    const listed = new Set(answer.CurrentJobs.map((c) => c.id))
    for (const job of [...this.jobs.values()]) {
      if (job.state !== 'done' && !listed.has(job.id) && !offered.has(job.id)) this.ended(job)
    }
    this.pump()
  }

  private ended(job: LocalJob): void {
    say(`Job ${job.id}: the task ended on the server; stopping it`)
    this.reporter.drop(job.id)
    this.forget(job.id)
    if (job.state === 'queued') this.queue.splice(this.queue.indexOf(job), 1)
    job.state = 'done'
    job.handle?.stop(true)
  }

  private accept(id: number, offer: RunnerNewJob): void {
    this.reporter.open(id, 'starting')
    if (!offer.job) {
      sayError(
        `Job ${id}: the server did not send the Flagman job description; ` +
          'this runner works only with a Flagman server',
      )
      this.reporter.lines(id, [
        {
          time: now(),
          message:
            'The Flagman runner needs a Flagman server: the job came without its description',
        },
      ])
      this.reporter.status(id, 'error', true)
      this.recent.set(id, Date.now())
      return
    }
    const spec = offer.job
    const job: LocalJob = {
      id,
      projectId: spec.projectId,
      spec,
      state: 'queued',
      handle: null,
      serverStatus: 'starting',
      stop: null,
    }
    this.jobs.set(id, job)
    this.queue.push(job)
    say(`Job ${id} received (project ${spec.projectId})`)
  }

  /** A task the server thinks this runner holds, from before it was restarted. */
  private orphan(id: number, status: string): void {
    this.orphans.add(id)
    const final = status === 'stopping' ? 'stopped' : 'error'
    sayError(`Job ${id} was ${status} when this runner restarted; reporting it ${final}`)
    this.reporter.open(id, status)
    this.reporter.lines(id, [{ time: now(), message: RESTARTED_LINE }])
    this.reporter.status(id, final, true)
  }

  private sync(job: LocalJob, status: string): void {
    if (status === job.serverStatus) return
    job.serverStatus = status
    switch (status) {
      case 'stopping':
        this.reporter.adopt(job.id, status)
        this.requestStop(job, false)
        break
      case 'stopped':
        this.requestStop(job, true)
        break
      case 'confirmed':
        this.reporter.adopt(job.id, status)
        job.handle?.confirm()
        break
      case 'rejected':
        this.reporter.adopt(job.id, status)
        job.handle?.reject()
        break
      default:
        break
    }
  }

  private requestStop(job: LocalJob, force: boolean): void {
    if (job.state === 'done') return
    if (job.stop === 'force' || (job.stop === 'soft' && !force)) return
    job.stop = force ? 'force' : 'soft'
    say(`Job ${job.id}: ${force ? 'force stop' : 'stop'} asked by the server`)
    if (job.state === 'queued') {
      this.queue.splice(this.queue.indexOf(job), 1)
      job.state = 'done'
      this.reporter.status(job.id, 'stopped', true)
      return
    }
    job.handle?.stop(force)
  }

  private running(): number {
    let count = 0
    for (const job of this.jobs.values()) if (job.state === 'running') count += 1
    return count
  }

  /** Starts queued jobs while the runner has free slots. */
  private pump(): void {
    const limit = this.settings.maxParallelTasks ?? 0
    while (this.stopping === null && this.queue.length > 0) {
      if (limit > 0 && this.running() >= limit) return
      const job = this.queue.shift()!
      this.start(job)
    }
  }

  private start(job: LocalJob): void {
    job.state = 'running'
    const { id } = job
    this.reporter.status(id, 'running')
    say(`Job ${id} running`)
    const spec: JobSpec = {
      ...job.spec,
      workRoot: join(this.settings.workDir, `project_${job.projectId}`),
    }
    let handle: JobHandle
    try {
      handle = runJob(
        spec,
        {
          onLines: (lines) =>
            this.reporter.lines(
              id,
              lines.map((l) => ({ time: l.time, message: l.output })),
            ),
          onStatus: (status) => this.reporter.status(id, status),
          onCommit: (hash, message) => this.reporter.commit(id, hash, message),
          outputBacklog: () => this.reporter.backlog(),
        },
        { graceMs: this.settings.graceMs ?? 10_000 },
      )
    } catch (error) {
      sayError(
        `Job ${id} could not start: ${error instanceof Error ? error.message : String(error)}`,
      )
      this.reporter.lines(id, [
        {
          time: now(),
          message:
            'Unable to launch the application. Please contact your system administrator for assistance.',
        },
      ])
      this.finish(job, 'error')
      return
    }
    job.handle = handle
    void handle.done.then((result) => this.finish(job, result))
  }

  private finish(job: LocalJob, result: string): void {
    if (job.state === 'done') return
    job.state = 'done'
    job.handle = null
    let status = result
    if (this.stopping !== null && job.stop === null && result !== 'success') {
      // Stopped with the runner, not by anyone's request: the task failed.
      this.reporter.lines(job.id, [
        { time: now(), message: `The runner stopped (${this.stopping}) before this task finished` },
      ])
      status = 'error'
    }
    say(`Job ${job.id} ${status}`)
    this.reporter.status(job.id, status, true)
    this.pump()
  }

  /** The final status reached the server. */
  private forget(id: number): void {
    this.jobs.delete(id)
    this.recent.set(id, Date.now())
  }

  /** The server refused the job's reports (the task ended there, or is not ours). */
  private refused(id: number, reason: string): void {
    sayError(`Job ${id}: the server refused its progress (${reason}); the job is dropped`)
    const job = this.jobs.get(id)
    this.forget(id)
    if (!job) return
    if (job.state === 'queued') this.queue.splice(this.queue.indexOf(job), 1)
    job.state = 'done'
    job.handle?.stop(true)
    this.pump()
  }

  private async shutdown(): Promise<void> {
    const running = [...this.jobs.values()].filter((j) => j.state === 'running')
    if (this.fatalError) {
      sayError(this.fatalError.message)
      for (const job of running) job.handle?.stop(true)
    } else {
      say(`Stopping (${this.stopping}): ${running.length} running job(s)`)
      for (const job of this.queue.splice(0)) {
        job.state = 'done'
        this.reporter.lines(job.id, [
          {
            time: now(),
            message: `The runner stopped (${this.stopping}) before this task started`,
          },
        ])
        this.reporter.status(job.id, 'error', true)
      }
      for (const job of running) job.handle?.stop(false)
    }
    await Promise.all(running.map((job) => job.handle?.done))
    if (this.fatalError) return
    let timer: NodeJS.Timeout | undefined
    const gaveUp = await Promise.race([
      this.reporter.idle().then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), SHUTDOWN_REPORT_MS)
      }),
    ])
    clearTimeout(timer)
    if (gaveUp) sayError('Some progress could not be sent to the server before stopping')
    say('Runner stopped')
  }
}
