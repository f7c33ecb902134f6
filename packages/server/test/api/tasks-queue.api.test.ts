import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { JobResult, JobSpec } from '@flagman/contract'
import { createDb, insertReturningId, migrateToLatest, nowIso, type Db } from '@flagman/db'
import type { FastifyBaseLogger } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SecretBox } from '../../src/lib/secret-box.js'
import { createTaskQueue, type JobHooks, type RunJob } from '../../src/modules/tasks/task-queue.js'
import { insertTaskRow } from '../../src/modules/tasks/tasks.repository.js'

/** A stand-in executor: each job runs until the test finishes it. */
function fakeExecutor() {
  const jobs = new Map<number, { hooks: JobHooks; finish(result: JobResult): void }>()
  const started: number[] = []
  const runJob: RunJob = (spec: JobSpec, hooks) => {
    let finish!: (r: JobResult) => void
    const done = new Promise<JobResult>((resolve) => (finish = resolve))
    started.push(spec.taskId)
    jobs.set(spec.taskId, { hooks, finish })
    hooks.onStatus('running')
    hooks.onLines([{ time: nowIso(), output: `job ${spec.taskId}` }])
    return {
      stop: () => finish('stopped'),
      confirm: () => {},
      reject: () => finish('error'),
      done,
    }
  }
  return { runJob, jobs, started }
}

const until = async (check: () => boolean | Promise<boolean>, what: string) => {
  const deadline = Date.now() + 5000
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

describe('task queue with a stand-in executor', () => {
  let dir: string
  let db: Db
  let projectId: number
  const templates: number[] = []

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flagman-queue-'))
    db = await createDb({ dialect: 'sqlite', location: join(dir, 'db.sqlite') })
    await migrateToLatest(db)
    projectId = await insertReturningId(db, 'project', { name: 'p', created: nowIso(), alert: 0 })
    const keyId = await insertReturningId(db, 'access_key', {
      project_id: projectId,
      name: 'None',
      type: 'none',
      created: nowIso(),
    })
    const repositoryId = await insertReturningId(db, 'repository', {
      project_id: projectId,
      ssh_key_id: keyId,
      name: 'r',
      git_url: dir,
      created: nowIso(),
    })
    for (const name of ['a', 'b', 'c']) {
      templates.push(
        await insertReturningId(db, 'template', {
          project_id: projectId,
          repository_id: repositoryId,
          name,
          app: 'bash',
          playbook: 'x.sh',
          allow_override_args_in_task: 0,
          autorun: 0,
          suppress_success_alerts: 0,
          created: nowIso(),
        }),
      )
    }
  })

  afterAll(async () => {
    await db?.destroy()
    rmSync(dir, { recursive: true, force: true })
  })

  const status = async (id: number) =>
    (
      await db.kysely
        .selectFrom('task')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).status

  /** A queue whose jobs are run by a fake executor, with the given global limit. */
  const queueWithFakeExecutor = (maxParallelTasks: number) => {
    const fake = fakeExecutor()
    const queue = createTaskQueue({
      db,
      box: SecretBox.fromBase64(Buffer.alloc(32, 1).toString('base64')),
      dataDir: dir,
      webHost: '',
      maxParallelTasks,
      log: { error: () => {} } as unknown as FastifyBaseLogger,
      runJob: fake.runJob,
    })
    return { fake, queue }
  }

  it('starts tasks as slots free up, within the global and template limits', async () => {
    const { fake, queue } = queueWithFakeExecutor(2)
    const add = async (templateId: number) => {
      const row = await insertTaskRow(db, {
        project_id: projectId,
        template_id: templateId,
        status: 'waiting',
        user_id: null,
      })
      await queue.add(row)
      return row.id
    }
    const t1 = await add(templates[0]!)
    const t2 = await add(templates[0]!)
    const t3 = await add(templates[1]!)
    const t4 = await add(templates[2]!)
    await until(() => fake.started.length === 2, 'two starts')
    // t2 shares t1's template; t3 takes the second slot; t4 waits for a slot.
    expect(fake.started).toEqual([t1, t3])
    await until(async () => (await status(t1)) === 'running', 't1 running')
    expect(await status(t2)).toBe('waiting')
    expect(await status(t4)).toBe('waiting')

    fake.jobs.get(t1)!.finish('success')
    await until(() => fake.started.length === 3, 'third start')
    expect(fake.started[2]).toBe(t2)
    await until(async () => (await status(t1)) === 'success', 't1 success')

    await queue.stop(projectId, t4, false)
    expect(await status(t4)).toBe('stopped')
    await queue.stop(projectId, t3, false)
    await until(async () => (await status(t3)) === 'stopped', 't3 stopped')
    fake.jobs.get(t2)!.finish('error')
    await until(async () => (await status(t2)) === 'error', 't2 error')
    const lines = await db.kysely
      .selectFrom('task_output')
      .select('output')
      .where('task_id', '=', t1)
      .orderBy('id')
      .execute()
    expect(lines.map((l) => l.output)).toContain(`job ${t1}`)
    expect(fake.started).not.toContain(t4)
    await queue.shutdown()
  })

  it('ends tasks a previous process left behind and queues waiting ones again', async () => {
    const { fake, queue } = queueWithFakeExecutor(0)
    const left = async (templateId: number, taskStatus: string) =>
      (
        await insertTaskRow(db, {
          project_id: projectId,
          template_id: templateId,
          status: taskStatus,
          user_id: null,
        })
      ).id
    const running = await left(templates[0]!, 'running')
    const stopping = await left(templates[1]!, 'stopping')
    const waiting = await left(templates[2]!, 'waiting')
    await queue.recover()
    expect(await status(running)).toBe('error')
    expect(await status(stopping)).toBe('stopped')
    const output = await db.kysely
      .selectFrom('task_output')
      .select('output')
      .where('task_id', '=', running)
      .execute()
    expect(output.map((o) => o.output)).toEqual(['Task was interrupted by a server restart'])
    await until(() => fake.started.includes(waiting), 'the waiting task to start')
    expect(fake.started).toEqual([waiting])
    fake.jobs.get(waiting)!.finish('success')
    await until(async () => (await status(waiting)) === 'success', 'waiting task success')
    await queue.shutdown()
  })
})
