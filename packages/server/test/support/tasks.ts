import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Task, TaskOutput } from '@flagman/contract'
import { expect } from 'vitest'
import { z } from 'zod'
import { unique, type Person, type World } from './fixtures.js'
import { expectBody, type HttpResult } from './http.js'
import { ProjectResources } from './resources.js'
import { setAppsActive } from './templates.js'

/** Scripts committed into the local git repository the tasks run from. */
export const SCRIPTS: Record<string, string> = {
  'ok.sh': 'echo "hello from bash"\necho "args:$*"\n',
  'fail.sh': 'echo "about to fail"\nexit 3\n',
  'many.sh': 'for i in $(seq 1 10000); do echo "line $i"; done\n',
  'sleep.sh': 'echo started\nsleep 30\necho "not reached"\n',
  'trap.sh': "trap '' TERM\necho started\nwhile true; do sleep 0.1; done\n",
  'meta.sh':
    'echo "id=$SEMAPHORE_TASK_ID project=$SEMAPHORE_PROJECT_ID target=$SEMAPHORE_TASK_TARGET_VERSION"\n',
  'short.sh': 'sleep 0.3\necho done\n',
  'flood.sh': 'seq -f "flood line %.0f" 1 300000\n',
  'hello.py': 'import sys\nprint("hello from python")\nsys.exit(0)\n',
  'fail.py': 'raise SystemExit("python failed")\n',
}

/** A git repository in the temp folder holding `files`, on branch main. */
export function gitRepository(files: Record<string, string>): { path: string; dispose(): void } {
  const path = mkdtempSync(join(tmpdir(), 'flagman-repo-'))
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: path,
      stdio: 'pipe',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@example.test',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@example.test',
      },
    })
  git('init', '-q', '-b', 'main')
  // Scripts are committed executable.
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(path, name), text, { mode: /(\.sh|-client)$/.test(name) ? 0o755 : 0o644 })
  }
  git('add', '.')
  git('commit', '-q', '-m', 'files')
  return { path, dispose: () => rmSync(path, { recursive: true, force: true }) }
}

/** A git repository in the temp folder with the scripts committed; removed by `dispose`. */
export function gitFixture(): { path: string; dispose(): void } {
  return gitRepository(SCRIPTS)
}

const Item = z.object({ id: z.number() }).catchall(z.unknown())
const FINISHED = ['success', 'error', 'stopped']

/** A project with a local repository, as `person`, and helpers to run its scripts. */
export class TaskProject {
  constructor(
    readonly world: World,
    readonly p: ProjectResources,
    readonly repositoryId: number,
  ) {}

  static async create(world: World, repoPath: string, person?: Person): Promise<TaskProject> {
    const owner = person ?? (await world.admin())
    const project = await world.newProject(owner)
    const p = new ProjectResources(
      (method, path, options) => world.request(method, path, options),
      owner.as,
      project.id,
    )
    const keys = await p.list('/keys', Item)
    const none = keys.find((k) => k.name === 'None')
    if (!none) throw new Error('no None key')
    const repo = await p.repository(unique('repo'), none.id, { git_url: repoPath, git_branch: '' })
    return new TaskProject(world, p, repo.id)
  }

  async template(playbook: string, fields: Record<string, unknown> = {}): Promise<number> {
    const app = playbook.endsWith('.py') ? 'python' : 'bash'
    const result = await this.p.request('POST', '/templates', {
      name: unique('tpl'),
      project_id: this.p.projectId,
      app,
      playbook,
      repository_id: this.repositoryId,
      ...fields,
    })
    return expectBody(result, 201, Item).id
  }

  post(body: Record<string, unknown>): Promise<HttpResult> {
    return this.p.request('POST', '/tasks', body)
  }

  async run(templateId: number, fields: Record<string, unknown> = {}): Promise<Task> {
    return expectBody(await this.post({ template_id: templateId, ...fields }), 201, Task)
  }

  task(id: number): Promise<Task> {
    return this.p.get(`/tasks/${id}`, Task)
  }

  output(id: number): Promise<TaskOutput[]> {
    return this.p.list(`/tasks/${id}/output`, TaskOutput)
  }

  async lines(id: number): Promise<string[]> {
    return (await this.output(id)).map((o) => o.output)
  }

  /** Polls until the task has one of the statuses (default: finished). */
  async waitFor(id: number, statuses = FINISHED, timeoutMs = 20_000): Promise<Task> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const task = await this.task(id)
      if (statuses.includes(task.status)) return task
      if (Date.now() > deadline) {
        throw new Error(`task ${id} is ${task.status}, not ${statuses.join('|')}`)
      }
      await new Promise((r) => setTimeout(r, 40))
    }
  }

  /** Polls until some output line matches. */
  async waitForLine(id: number, pattern: RegExp, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs
    while (!(await this.lines(id)).some((l) => pattern.test(l))) {
      if (Date.now() > deadline) throw new Error(`task ${id} never printed ${pattern}`)
      await new Promise((r) => setTimeout(r, 40))
    }
  }
}

export async function activateScriptApps(world: World): Promise<void> {
  await setAppsActive(world, ['bash', 'python'], true)
}

export function expectStatus(task: Task, status: string): void {
  expect(task.status, `task ${task.id}`).toBe(status)
}
