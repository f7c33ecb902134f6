/*
 * Real `flagman runner` processes against the real server: registration, jobs of every kind
 * with keys and secrets, tag routing, limits, stops, a runner killed or restarted mid-work,
 * and two runners sharing one queue.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ActiveTask, CreatedRunner, Runner, type Task } from '@flagman/contract'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { dialects } from '../support/databases.js'
import { unique, World } from '../support/fixtures.js'
import { expectBody, expectNoContent } from '../support/http.js'
import { runnerCommand, startRunner, stopAllRunners } from '../support/runner-process.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { gitRepository, SCRIPTS, TaskProject } from '../support/tasks.js'
import { setAppsActive } from '../support/templates.js'

const REGISTRATION_TOKEN = 'runner-registration-token-for-tests'
const TIMEOUT_SECONDS = 3
const ENV_SECRET = 'env-secret-value-7531'
const KEY_PASSWORD = 'inventory-password-8642'

const PLAYBOOK = `- hosts: all
  gather_facts: false
  tasks:
    - name: show
      ansible.builtin.debug:
        msg: "user={{ ansible_user }} password={{ ansible_password }} token_length={{ lookup('env', 'API_TOKEN') | length }}"
`

/** Scripts of the runner tests; `spans.sh` records when each task ran in a shared file. */
function runnerScripts(spansFile: string): Record<string, string> {
  return {
    ...SCRIPTS,
    'site.yml': PLAYBOOK,
    'secret.sh': 'echo "token=$API_TOKEN length=${#API_TOKEN}"\n',
    'spans.sh': `echo "start $SEMAPHORE_TASK_ID $(date +%s.%N)" >> "${spansFile}"\nsleep 1\necho "end $SEMAPHORE_TASK_ID $(date +%s.%N)" >> "${spansFile}"\necho "ran $SEMAPHORE_TASK_ID"\n`,
  }
}

/** The largest number of tasks whose start…end spans in the file overlap at one moment. */
function maxOverlap(spansFile: string): { most: number; started: string[] } {
  const events: Array<{ at: number; delta: number }> = []
  const started: string[] = []
  for (const line of readFileSync(spansFile, 'utf8').split('\n').filter(Boolean)) {
    const [kind, id, at] = line.split(' ')
    if (kind === 'start') started.push(id!)
    events.push({ at: Number(at), delta: kind === 'start' ? 1 : -1 })
  }
  events.sort((a, b) => a.at - b.at || a.delta - b.delta)
  let now = 0
  let most = 0
  for (const e of events) {
    now += e.delta
    most = Math.max(most, now)
  }
  return { most, started }
}

interface Setup {
  server: TestServer
  world: World
  tp: TaskProject
  repo: { path: string; dispose(): void }
  spansFile: string
}

async function setUp(dialect: Parameters<typeof startTestServer>[0], env: Record<string, string>) {
  const spansDir = mkdtempSync(join(tmpdir(), 'flagman-runner-spans-'))
  const spansFile = join(spansDir, 'spans.log')
  writeFileSync(spansFile, '')
  const repo = gitRepository(runnerScripts(spansFile))
  const server = await startTestServer(dialect, {
    FLAGMAN_RUNNER_REGISTRATION_TOKEN: REGISTRATION_TOKEN,
    FLAGMAN_RUNNER_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS),
    ...env,
  })
  const world = new World(server)
  await setAppsActive(world, ['bash', 'python', 'ansible'], true)
  const tp = await TaskProject.create(world, repo.path)
  return {
    server,
    world,
    tp,
    repo: {
      path: repo.path,
      dispose: () => {
        repo.dispose()
        rmSync(spansDir, { recursive: true, force: true })
      },
    },
    spansFile,
  } satisfies Setup
}

/** A runner made through the API as the administrator; its key written to a temp file. */
async function apiRunner(s: Setup, fields: Record<string, unknown> = {}) {
  const admin = await s.world.admin()
  const created = expectBody(
    await s.world.request('POST', '/api/runners', {
      as: admin.as,
      json: { name: unique('runner'), ...fields },
    }),
    201,
    CreatedRunner,
  )
  const dir = mkdtempSync(join(tmpdir(), 'flagman-runner-key-'))
  const keyFile = join(dir, 'config.runner.key')
  writeFileSync(keyFile, created.private_key, { mode: 0o600 })
  const args = ['--server', s.server.url, '--token', created.token, '--private-key-file', keyFile]
  return {
    runner: created,
    args,
    // An idle runner killed by the test still counts as online for a few seconds: switched
    // off, it gets none of the next test's tasks.
    async dispose() {
      rmSync(dir, { recursive: true, force: true })
      await s.world.request('POST', `/api/runners/${created.id}/active`, {
        as: admin.as,
        json: { active: false },
      })
    },
  }
}

async function runnerById(s: Setup, id: number): Promise<Runner> {
  const admin = await s.world.admin()
  return expectBody(
    await s.world.request('GET', `/api/runners/${id}`, { as: admin.as }),
    200,
    Runner,
  )
}

async function activeTasks(s: Setup): Promise<ActiveTask[]> {
  const admin = await s.world.admin()
  return expectBody(
    await s.world.request('GET', '/api/tasks', { as: admin.as }),
    200,
    z.array(ActiveTask),
  )
}

/** Polls until the condition holds. */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

const assignedTo = (lines: string[], taskId: number, runnerId: number) =>
  lines.some((l) => l.startsWith(`Task #${taskId} is assigned to runner #${runnerId}`))

const stop = (tp: TaskProject, taskId: number, force: boolean) =>
  tp.p.request('POST', `/tasks/${taskId}/stop`, { force })

describe.each(dialects())('runners with local execution on %s', (dialect) => {
  let s: Setup

  beforeAll(async () => {
    s = await setUp(dialect, {})
  }, 60_000)

  afterEach(async () => {
    await stopAllRunners()
  })

  afterAll(async () => {
    await s?.server.stop()
    s?.repo.dispose()
  })

  it('registers with the registration token and runs bash, python and ansible jobs with keys and secrets, masked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flagman-runner-config-'))
    try {
      const config = join(dir, 'runner.json')
      const refused = runnerCommand([
        'register',
        '--server',
        s.server.url,
        '--registration-token',
        'wrong',
        '--config',
        config,
      ])
      expect(refused.status).toBe(1)
      expect(refused.stderr).toBe(
        'flagman: The server refused the registration: Invalid registration token\n',
      )

      const tag = unique('reg').replace(/[^A-Za-z0-9_.-]/g, '')
      const registered = runnerCommand([
        'register',
        '--server',
        s.server.url,
        '--registration-token',
        REGISTRATION_TOKEN,
        '--config',
        config,
        '--tags',
        tag,
        '--name',
        'registered',
      ])
      expect(registered.status, registered.stderr).toBe(0)
      expect(registered.stdout).toContain(`flagman runner start --config ${config}`)
      const file = JSON.parse(readFileSync(config, 'utf8')) as Record<string, unknown>
      expect(file).toMatchObject({
        server: s.server.url,
        token: expect.any(String),
        private_key_file: 'config.runner.key',
        tags: [tag],
        max_parallel_tasks: 0,
      })
      expect(statSync(config).mode & 0o777).toBe(0o600)
      expect(statSync(join(dir, 'config.runner.key')).mode & 0o777).toBe(0o600)
      expect(readFileSync(join(dir, 'config.runner.key'), 'utf8')).toMatch(/PRIVATE KEY/)
      const again = runnerCommand([
        'register',
        '--server',
        s.server.url,
        '--registration-token',
        REGISTRATION_TOKEN,
        '--config',
        config,
      ])
      expect(again.status).toBe(1)
      expect(again.stderr).toMatch(/exists; give --force/)

      const admin = await s.world.admin()
      const runners = expectBody(
        await s.world.request('GET', '/api/runners', { as: admin.as }),
        200,
        z.array(Runner),
      )
      const mine = runners.find((r) => r.name === 'registered')!
      expect(mine).toMatchObject({ tag, project_id: null, active: true })

      const runner = startRunner(['--config', config])
      await runner.waitForOutput(/Connected to the server/)
      expect((await runnerById(s, mine.id)).online).toBe(true)

      // Keys and secrets: an env secret and an inventory's login/password key.
      const key = await s.tp.p.loginPasswordKey(unique('key'), KEY_PASSWORD, 'deployer')
      const inventory = await s.tp.p.inventory('local', key.id, {
        type: 'static',
        inventory: 'localhost ansible_connection=local ansible_python_interpreter=/usr/bin/python3',
      })
      const environment = await s.tp.p.environment(unique('env'), {
        secrets: [{ operation: 'create', type: 'env', name: 'API_TOKEN', secret: ENV_SECRET }],
      })
      const fields = { runner_tag: tag, environment_id: environment.id }
      const bash = await s.tp.run(await s.tp.template('secret.sh', fields))
      const python = await s.tp.run(await s.tp.template('hello.py', fields))
      const ansible = await s.tp.run(
        await s.tp.template('site.yml', { ...fields, app: 'ansible', inventory_id: inventory.id }),
      )
      for (const task of [bash, python, ansible]) {
        const done = await s.tp.waitFor(task.id, undefined, 90_000)
        const lines = await s.tp.lines(task.id)
        expect(done.status, lines.join('\n')).toBe('success')
        expect(assignedTo(lines, task.id, mine.id), lines.join('\n')).toBe(true)
        expect(lines.join('\n')).not.toContain(ENV_SECRET)
        expect(lines.join('\n')).not.toContain(KEY_PASSWORD)
        expect(done.commit_hash).toMatch(/^[0-9a-f]{40}$/)
      }
      expect(await s.tp.lines(bash.id)).toContain(`token=**** length=${ENV_SECRET.length}`)
      expect(await s.tp.lines(python.id)).toContain('hello from python')
      const ansibleLines = (await s.tp.lines(ansible.id)).join('\n')
      expect(ansibleLines).toContain(
        `user=deployer password=**** token_length=${ENV_SECRET.length}`,
      )
      // The runner's own log names jobs, never what they print.
      expect(runner.output()).toContain(`Job ${bash.id} success`)
      expect(runner.output()).not.toContain(ENV_SECRET)
      expect(runner.output()).not.toContain('hello from python')

      expect(await runner.stop()).toBe(0)
      const gone = runnerCommand(['unregister', '--config', config])
      expect(gone.status, gone.stderr).toBe(0)
      expect(() => statSync(config)).toThrow()
      expect(() => statSync(join(dir, 'config.runner.key'))).toThrow()
      expectBody(
        await s.world.request('GET', `/api/runners/${mine.id}`, { as: admin.as }),
        404,
        z.unknown(),
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 180_000)

  it('routes a tagged template only to a runner with the tag, and keeps it waiting with a reason when none has it', async () => {
    const tag = `gpu-${Date.now()}`
    const tagged = await apiRunner(s, { tag })
    const plain = await apiRunner(s)
    try {
      const taggedProcess = startRunner(tagged.args)
      const plainProcess = startRunner(plain.args)
      await taggedProcess.waitForOutput(/Connected to the server/)
      await plainProcess.waitForOutput(/Connected to the server/)
      const template = await s.tp.template('ok.sh', { runner_tag: tag })
      const ids: number[] = []
      for (let i = 0; i < 3; i += 1) {
        const task = await s.tp.run(template)
        ids.push(task.id)
        expect((await s.tp.waitFor(task.id)).status).toBe('success')
      }
      for (const id of ids) {
        const lines = await s.tp.lines(id)
        expect(assignedTo(lines, id, tagged.runner.id), lines.join('\n')).toBe(true)
        expect(lines).toContain('hello from bash')
        expect(plainProcess.output()).not.toContain(`Job ${id} `)
        expect(taggedProcess.output()).toContain(`Job ${id} success`)
      }

      // A tag no runner carries: the task waits, the reason is visible, nothing runs it.
      const nobody = await s.tp.run(await s.tp.template('ok.sh', { runner_tag: 'nobody-has-it' }))
      await until(
        async () => (await activeTasks(s)).some((t) => t.task_id === nobody.id && !!t.queue_reason),
        'a queue reason',
      )
      const waiting = (await activeTasks(s)).find((t) => t.task_id === nobody.id)!
      expect(waiting).toMatchObject({ location: 'queue', status: 'waiting' })
      expect(waiting.queue_reason).toMatch(/nobody-has-it/)
      await new Promise((r) => setTimeout(r, 1000))
      expect((await s.tp.task(nobody.id)).status).toBe('waiting')
      expectNoContent(await stop(s.tp, nobody.id, false))
      expect((await s.tp.waitFor(nobody.id)).status).toBe('stopped')
    } finally {
      await tagged.dispose()
      await plain.dispose()
    }
  }, 120_000)

  it('stops and force stops a task on a runner', async () => {
    const tag = `stop-${Date.now()}`
    const made = await apiRunner(s, { tag })
    try {
      const runner = startRunner(made.args)
      await runner.waitForOutput(/Connected to the server/)
      const soft = await s.tp.run(await s.tp.template('sleep.sh', { runner_tag: tag }))
      await s.tp.waitForLine(soft.id, /^started$/)
      expectNoContent(await stop(s.tp, soft.id, false))
      const stopped = await s.tp.waitFor(soft.id, undefined, 20_000)
      expect(stopped.status).toBe('stopped')
      expect(await s.tp.lines(soft.id)).not.toContain('not reached')

      // trap.sh ignores SIGTERM: only a force stop ends it.
      const hard = await s.tp.run(await s.tp.template('trap.sh', { runner_tag: tag }))
      await s.tp.waitForLine(hard.id, /^started$/)
      expectNoContent(await stop(s.tp, hard.id, true))
      expect((await s.tp.waitFor(hard.id, undefined, 10_000)).status).toBe('stopped')
      // The server no longer lists the task: the runner kills the process at once, even one
      // that prints nothing more.
      await runner.waitForOutput(new RegExp(`Job ${hard.id}: the task ended on the server`))
      // The runner drops the job too: it is free for the next one.
      const next = await s.tp.run(await s.tp.template('ok.sh', { runner_tag: tag }))
      expect((await s.tp.waitFor(next.id)).status).toBe('success')
      expect(runner.output()).toContain(`Job ${next.id} success`)
    } finally {
      await made.dispose()
    }
  }, 90_000)

  it('waits for confirmation of a terraform plan on a runner, then applies; a rejected plan fails', async () => {
    // A stand-in terraform on the runner's PATH: it prints a plan with changes.
    const bin = mkdtempSync(join(tmpdir(), 'flagman-runner-bin-'))
    writeFileSync(
      join(bin, 'terraform'),
      '#!/bin/bash\ncase "$1" in\n  plan) echo "Plan: 1 to add, 0 to change, 0 to destroy." ;;\n  apply) echo "Apply complete! Resources: 1 added." ;;\nesac\n',
    )
    chmodSync(join(bin, 'terraform'), 0o755)
    const tag = `tf-${Date.now()}`
    const made = await apiRunner(s, { tag })
    try {
      await setAppsActive(s.world, ['terraform'], true)
      const runner = startRunner(made.args, { PATH: `${bin}:${process.env.PATH ?? ''}` })
      await runner.waitForOutput(/Connected to the server/)
      const template = await s.tp.template('', { app: 'terraform', runner_tag: tag })
      const task = await s.tp.run(template)
      await s.tp.waitFor(task.id, ['waiting_confirmation'], 30_000)
      expectNoContent(await s.tp.p.request('POST', `/tasks/${task.id}/confirm`))
      expect((await s.tp.waitFor(task.id)).status).toBe('success')
      const lines = await s.tp.lines(task.id)
      expect(lines).toContain('Apply complete! Resources: 1 added.')
      expect(assignedTo(lines, task.id, made.runner.id)).toBe(true)

      const rejected = await s.tp.run(template)
      await s.tp.waitFor(rejected.id, ['waiting_confirmation'], 30_000)
      expectNoContent(await s.tp.p.request('POST', `/tasks/${rejected.id}/reject`))
      expect((await s.tp.waitFor(rejected.id)).status).toBe('error')
      expect(await s.tp.lines(rejected.id)).not.toContain('Apply complete! Resources: 1 added.')
    } finally {
      await made.dispose()
      rmSync(bin, { recursive: true, force: true })
    }
  }, 90_000)

  it('ends a task the runner held when it was killed and came straight back', async () => {
    const tag = `back-${Date.now()}`
    const made = await apiRunner(s, { tag })
    try {
      const first = startRunner(made.args)
      await first.waitForOutput(/Connected to the server/)
      const task = await s.tp.run(await s.tp.template('sleep.sh', { runner_tag: tag }))
      await s.tp.waitForLine(task.id, /^started$/)
      await first.kill()
      // Back well within the offline timeout: the new process knows nothing of the task.
      const second = startRunner(made.args)
      const done = await s.tp.waitFor(task.id, undefined, 10_000)
      expect(done.status).toBe('error')
      expect(await s.tp.lines(task.id)).toContain(
        'The runner restarted while this task was running',
      )
      const next = await s.tp.run(await s.tp.template('ok.sh', { runner_tag: tag }))
      expect((await s.tp.waitFor(next.id)).status).toBe('success')
      expect(second.output()).toContain(`Job ${next.id} success`)
    } finally {
      await made.dispose()
    }
  }, 60_000)

  it('refuses a wrong token at once, and ends a runner whose record is deleted', async () => {
    const wrong = startRunner(['--server', s.server.url, '--token', 'not-a-runner-token'])
    expect(await wrong.exited).toBe(1)
    expect(wrong.output()).toMatch(
      /flagman: The server refused the runner token \(Runner not found\)/,
    )

    const made = await apiRunner(s, { tag: `gone-${Date.now()}` })
    try {
      const runner = startRunner(made.args)
      await runner.waitForOutput(/Connected to the server/)
      const admin = await s.world.admin()
      expectNoContent(
        await s.world.request('DELETE', `/api/runners/${made.runner.id}`, { as: admin.as }),
      )
      expect(await runner.exited).toBe(1)
      expect(runner.output()).toMatch(/flagman: The server refused the runner token/)
    } finally {
      await made.dispose()
    }
  }, 60_000)

  it('ends the task of a runner killed with SIGKILL within the timeout, with a line naming it', async () => {
    const tag = `lost-${Date.now()}`
    const made = await apiRunner(s, { tag })
    try {
      const runner = startRunner(made.args)
      await runner.waitForOutput(/Connected to the server/)
      const task = await s.tp.run(await s.tp.template('sleep.sh', { runner_tag: tag }))
      await s.tp.waitForLine(task.id, /^started$/)
      const killedAt = Date.now()
      await runner.kill()
      const done = await s.tp.waitFor(task.id, undefined, (TIMEOUT_SECONDS + 10) * 1000)
      const tookMs = Date.now() - killedAt
      expect(done.status).toBe('error')
      expect(tookMs).toBeLessThan((TIMEOUT_SECONDS + 5) * 1000)
      const lines = await s.tp.lines(task.id)
      expect(
        lines.some((l) => l.startsWith(`Runner #${made.runner.id}`) && /was lost/.test(l)),
        lines.join('\n'),
      ).toBe(true)
      expect((await activeTasks(s)).map((t) => t.task_id)).not.toContain(task.id)
      expect((await runnerById(s, made.runner.id)).online).toBe(false)
    } finally {
      await made.dispose()
    }
  }, 60_000)
})

describe.each(dialects())('runners without local execution on %s', (dialect) => {
  let s: Setup

  beforeAll(async () => {
    s = await setUp(dialect, { FLAGMAN_LOCAL_EXECUTION: 'false' })
  }, 60_000)

  afterEach(async () => {
    await stopAllRunners()
  })

  afterAll(async () => {
    await s?.server.stop()
    s?.repo.dispose()
  })

  const clearSpans = () => writeFileSync(s.spansFile, '')

  it('sends untagged tasks to runners, and keeps them waiting while none is online', async () => {
    const made = await apiRunner(s)
    try {
      const task = await s.tp.run(await s.tp.template('ok.sh'))
      await until(
        async () => (await activeTasks(s)).some((t) => t.task_id === task.id && !!t.queue_reason),
        'a queue reason',
      )
      expect((await s.tp.task(task.id)).status).toBe('waiting')
      const runner = startRunner(made.args)
      expect((await s.tp.waitFor(task.id)).status).toBe('success')
      const lines = await s.tp.lines(task.id)
      expect(assignedTo(lines, task.id, made.runner.id), lines.join('\n')).toBe(true)
      expect(runner.output()).toContain(`Job ${task.id} success`)
    } finally {
      await made.dispose()
    }
  }, 60_000)

  it("keeps to the runner's slots and to the project's limit", async () => {
    const made = await apiRunner(s)
    try {
      clearSpans()
      const runner = startRunner([...made.args, '--max-parallel-tasks', '2'])
      await runner.waitForOutput(/Connected to the server/)
      const tasks: Task[] = []
      for (let i = 0; i < 4; i += 1) tasks.push(await s.tp.run(await s.tp.template('spans.sh')))
      for (const t of tasks)
        expect((await s.tp.waitFor(t.id, undefined, 30_000)).status).toBe('success')
      const slots = maxOverlap(s.spansFile)
      expect(slots.started).toHaveLength(4)
      expect(slots.most).toBe(2)
      expect((await runnerById(s, made.runner.id)).max_parallel_tasks).toBe(2)

      // The project's limit of 1 holds even though the runner has slots to spare.
      clearSpans()
      const admin = await s.world.admin()
      const project = await s.tp.p.get('', z.object({ name: z.string() }).catchall(z.unknown()))
      expectNoContent(
        await s.world.request('PUT', `/api/project/${s.tp.p.projectId}`, {
          as: admin.as,
          json: { name: project.name, max_parallel_tasks: 1 },
        }),
      )
      const limited: Task[] = []
      for (let i = 0; i < 3; i += 1) limited.push(await s.tp.run(await s.tp.template('spans.sh')))
      for (const t of limited)
        expect((await s.tp.waitFor(t.id, undefined, 30_000)).status).toBe('success')
      const project1 = maxOverlap(s.spansFile)
      expect(project1.started).toHaveLength(3)
      expect(project1.most).toBe(1)
      expectNoContent(
        await s.world.request('PUT', `/api/project/${s.tp.p.projectId}`, {
          as: admin.as,
          json: { name: project.name, max_parallel_tasks: 0 },
        }),
      )
    } finally {
      await made.dispose()
    }
  }, 120_000)

  it('runs the waiting tasks after a runner restarted mid-queue', async () => {
    const made = await apiRunner(s)
    try {
      const first = startRunner([...made.args, '--max-parallel-tasks', '1'])
      await first.waitForOutput(/Connected to the server/)
      const interrupted = await s.tp.run(await s.tp.template('sleep.sh'))
      const queued: Task[] = []
      for (let i = 0; i < 3; i += 1) queued.push(await s.tp.run(await s.tp.template('ok.sh')))
      await s.tp.waitForLine(interrupted.id, /^started$/)
      expect(await first.stop()).toBe(0)
      const ended = await s.tp.waitFor(interrupted.id, undefined, 10_000)
      expect(ended.status).toBe('error')
      expect(await s.tp.lines(interrupted.id)).toContain(
        'The runner stopped (SIGTERM) before this task finished',
      )
      // Nothing runs them while the runner is away (one may be handed to it again meanwhile).
      for (const t of queued) {
        const lines = (await s.tp.lines(t.id)).join('\n')
        expect(['waiting', 'starting'], lines).toContain((await s.tp.task(t.id)).status)
      }

      const second = startRunner([...made.args, '--max-parallel-tasks', '1'])
      for (const t of queued) {
        expect((await s.tp.waitFor(t.id, undefined, 30_000)).status).toBe('success')
        expect(second.output()).toContain(`Job ${t.id} success`)
      }
    } finally {
      await made.dispose()
    }
  }, 90_000)

  it('shares a queue between two runners: 20 tasks, each run exactly once', async () => {
    const a = await apiRunner(s)
    const b = await apiRunner(s)
    try {
      clearSpans()
      const ra = startRunner([...a.args, '--max-parallel-tasks', '3'])
      const rb = startRunner([...b.args, '--max-parallel-tasks', '3'])
      await ra.waitForOutput(/Connected to the server/)
      await rb.waitForOutput(/Connected to the server/)
      const templates: number[] = []
      for (let i = 0; i < 10; i += 1) templates.push(await s.tp.template('spans.sh'))
      const tasks: Task[] = []
      for (let i = 0; i < 20; i += 1) tasks.push(await s.tp.run(templates[i % 10]!))
      const onRunner = new Map<number, number>()
      for (const t of tasks) {
        expect((await s.tp.waitFor(t.id, undefined, 60_000)).status).toBe('success')
        const lines = await s.tp.lines(t.id)
        expect(lines.filter((l) => l === `ran ${t.id}`)).toHaveLength(1)
        const runnerId = assignedTo(lines, t.id, a.runner.id) ? a.runner.id : b.runner.id
        expect(assignedTo(lines, t.id, runnerId), lines.join('\n')).toBe(true)
        onRunner.set(runnerId, (onRunner.get(runnerId) ?? 0) + 1)
      }
      const { started } = maxOverlap(s.spansFile)
      expect(started.sort()).toEqual(tasks.map((t) => String(t.id)).sort())
      expect(onRunner.get(a.runner.id)).toBeGreaterThan(0)
      expect(onRunner.get(b.runner.id)).toBeGreaterThan(0)
    } finally {
      await a.dispose()
      await b.dispose()
    }
  }, 180_000)
})
