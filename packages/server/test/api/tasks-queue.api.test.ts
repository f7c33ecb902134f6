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

/** A scratch SQLite database with one project, its None key and a local repository. */
async function scratchProject(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  const db = await createDb({ dialect: 'sqlite', location: join(dir, 'db.sqlite') })
  await migrateToLatest(db)
  const projectId = await insertReturningId(db, 'project', {
    name: 'p',
    created: nowIso(),
    alert: 0,
  })
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
  /** A bash template of the project; without a repository when `repository` is false. */
  const template = (name: string, runnerTag: string | null = null, repository = true) =>
    insertReturningId(db, 'template', {
      project_id: projectId,
      repository_id: repository ? repositoryId : null,
      name,
      app: 'bash',
      playbook: 'x.sh',
      allow_override_args_in_task: 0,
      autorun: 0,
      suppress_success_alerts: 0,
      runner_tag: runnerTag,
      created: nowIso(),
    })
  return { dir, db, projectId, template }
}

describe('task queue with a stand-in executor', () => {
  let dir: string
  let db: Db
  let projectId: number
  const templates: number[] = []

  beforeAll(async () => {
    const scratch = await scratchProject('flagman-queue-')
    dir = scratch.dir
    db = scratch.db
    projectId = scratch.projectId
    for (const name of ['a', 'b', 'c']) templates.push(await scratch.template(name))
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
      publicBase: () => 'http://localhost:3000',
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

describe('task queue with runners', () => {
  let dir: string
  let db: Db
  let projectId: number
  let templateId: number
  let taggedTemplateId: number
  let template: Awaited<ReturnType<typeof scratchProject>>['template']

  beforeAll(async () => {
    const scratch = await scratchProject('flagman-queue-runners-')
    dir = scratch.dir
    db = scratch.db
    projectId = scratch.projectId
    template = scratch.template
    templateId = await template('plain', null)
    taggedTemplateId = await template('tagged', 'gpu')
  })

  afterAll(async () => {
    await db?.destroy()
    rmSync(dir, { recursive: true, force: true })
  })

  const task = async (id: number) =>
    db.kysely.selectFrom('task').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
  const output = async (id: number) =>
    (
      await db.kysely
        .selectFrom('task_output')
        .select('output')
        .where('task_id', '=', id)
        .orderBy('id')
        .execute()
    ).map((o) => o.output)
  const newRunner = (tag = '', maxParallelTasks = 0) =>
    insertReturningId(db, 'runner', {
      project_id: null,
      active: 1,
      name: `r-${tag}`,
      token_hash: `hash-${Math.random()}`,
      tag,
      max_parallel_tasks: maxParallelTasks,
      created: nowIso(),
    })
  const queueWith = (options: { localExecution: boolean; runnerTimeoutSeconds?: number }) => {
    const fake = fakeExecutor()
    const queue = createTaskQueue({
      db,
      box: SecretBox.fromBase64(Buffer.alloc(32, 1).toString('base64')),
      dataDir: dir,
      webHost: '',
      publicBase: () => 'http://localhost:3000',
      maxParallelTasks: 0,
      log: { error: () => {} } as unknown as FastifyBaseLogger,
      runJob: fake.runJob,
      ...options,
    })
    return { fake, queue }
  }
  const queued = async (
    queue: ReturnType<typeof queueWith>['queue'],
    template: number,
    secret = {},
  ) => {
    const row = await insertTaskRow(db, {
      project_id: projectId,
      template_id: template,
      status: 'waiting',
      user_id: null,
    })
    await queue.add(row, secret)
    return row.id
  }

  it('hands a tagged task to the runner with the tag, with its secrets, and takes its progress', async () => {
    const { fake, queue } = queueWith({ localExecution: true })
    const plain = await newRunner()
    const gpu = await newRunner('gpu')
    await queue.runnerSeen(plain)
    await queue.runnerSeen(gpu)
    const id = await queued(queue, taggedTemplateId, { token: 's3cret' })
    await until(async () => (await task(id)).status === 'starting', 'the claim')
    expect((await task(id)).runner_id).toBe(gpu)
    expect(fake.started).not.toContain(id)
    // The secret waits encrypted in the row until the runner has the job.
    expect((await task(id)).secret).not.toContain('s3cret')
    const news = await queue.runnerNews(gpu)
    expect(news.starting.map((t) => t.id)).toEqual([id])
    expect((await queue.runnerNews(plain)).current).toEqual([])
    const spec = await queue.jobSpecFor(news.starting[0]!)
    expect(spec.workRoot).toBe('')
    await expect(queue.runnerReport(plain, [{ ID: id, Status: 'running' }])).rejects.toThrow(
      'Task not assigned to this runner',
    )
    await expect(queue.runnerReport(gpu, [{ ID: id, Status: 'nonsense' }])).rejects.toThrow(
      'Invalid task status',
    )
    await queue.runnerReport(gpu, [
      { ID: id, Status: 'running', LogRecords: [{ time: nowIso(), message: 'on the runner' }] },
    ])
    expect((await task(id)).secret).toBeNull()
    await queue.runnerReport(gpu, [
      { ID: id, Status: 'success', Commit: { hash: 'abc', message: 'm' } },
    ])
    const done = await task(id)
    expect(done.status).toBe('success')
    expect(done.commit_hash).toBe('abc')
    expect(await output(id)).toContain('on the runner')
    await expect(
      queue.runnerReport(gpu, [
        { ID: id, Status: 'success', LogRecords: [{ time: nowIso(), message: 'late' }] },
      ]),
    ).rejects.toThrow(`Task ${id} is already finished`)
    await queue.shutdown()
  })

  it('keeps a task whose tag no runner has waiting, with the reason, until one comes', async () => {
    const { queue } = queueWith({ localExecution: true })
    await db.kysely.deleteFrom('runner').execute()
    const id = await queued(queue, taggedTemplateId)
    await until(async () => (await task(id)).queue_reason !== null, 'a reason')
    expect((await task(id)).queue_reason).toBe(
      'Waiting for a runner with the tag "gpu": none is active and online',
    )
    expect((await queue.listActive()).find((t) => t.task_id === id)).toMatchObject({
      location: 'queue',
      queue_reason: 'Waiting for a runner with the tag "gpu": none is active and online',
    })
    const gpu = await newRunner('gpu')
    const wake = queue.waitForRunnerNews(gpu, 5000)
    await queue.runnerSeen(gpu)
    await wake
    await until(async () => (await task(id)).status === 'starting', 'the claim')
    expect((await task(id)).queue_reason).toBeNull()
    await queue.runnerReport(gpu, [{ ID: id, Status: 'running' }])
    // Stop: the runner is told through its poll; force stop ends the task at once.
    await queue.stop(projectId, id, false)
    expect((await queue.runnerNews(gpu)).current).toEqual([{ id, status: 'stopping' }])
    await queue.stop(projectId, id, true)
    expect((await task(id)).status).toBe('stopped')
    expect((await queue.runnerNews(gpu)).current).toEqual([])
    await queue.shutdown()
  })

  it("ends a lost runner's running task with a line naming it and queues its unstarted one again", async () => {
    const { queue } = queueWith({ localExecution: false, runnerTimeoutSeconds: 2 })
    await db.kysely.deleteFrom('runner').execute()
    const lost = await newRunner('', 2)
    await queue.runnerSeen(lost)
    await queue.recover()
    const otherTemplate = await template('other', null, false)
    const running = await queued(queue, templateId)
    const unstarted = await queued(queue, otherTemplate)
    await until(
      async () =>
        (await task(running)).status === 'starting' &&
        (await task(unstarted)).status === 'starting',
      'both claims',
    )
    await queue.runnerReport(lost, [{ ID: running, Status: 'running' }])
    await until(async () => (await task(running)).status === 'error', 'the lost runner sweep')
    expect(await output(running)).toContain(
      `Runner #${lost} (r-) was lost: no heartbeat for 2 seconds; the task can not go on`,
    )
    await until(async () => (await task(unstarted)).status === 'waiting', 'the requeue')
    expect((await task(unstarted)).runner_id).toBeNull()
    const requeued = `Runner #${lost} (r-) was lost: no heartbeat for 2 seconds before the task started; it is back in the queue`
    await until(async () => (await output(unstarted)).includes(requeued), 'the requeue line')
    expect((await queue.listActive()).map((t) => t.task_id)).toEqual([unstarted])
    await queue.stop(projectId, unstarted, false)
    expect((await task(unstarted)).status).toBe('stopped')
    await queue.shutdown()
  })

  it('gives each task to one runner only, even with two runners polling', async () => {
    const { queue } = queueWith({ localExecution: false })
    await db.kysely.deleteFrom('runner').execute()
    const a = await newRunner()
    const b = await newRunner()
    await Promise.all([queue.runnerSeen(a), queue.runnerSeen(b)])
    const templates: number[] = []
    for (let i = 0; i < 6; i++) {
      templates.push(await template(`t${i}`, null, false))
    }
    const ids = await Promise.all(templates.map((t) => queued(queue, t)))
    await until(
      async () => (await Promise.all(ids.map(task))).every((t) => t.status === 'starting'),
      'all claimed',
    )
    const [newsA, newsB] = await Promise.all([queue.runnerNews(a), queue.runnerNews(b)])
    const given = [...newsA.starting, ...newsB.starting].map((t) => t.id).sort((x, y) => x - y)
    expect(given).toEqual([...ids].sort((x, y) => x - y))
    expect(newsA.starting.length).toBeGreaterThan(0)
    expect(newsB.starting.length).toBeGreaterThan(0)
    await queue.shutdown()
  })
})
