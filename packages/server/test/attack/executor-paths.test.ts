import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { expectError } from '../support/http.js'
import { ProjectResources } from '../support/resources.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { activateScriptApps, TaskProject } from '../support/tasks.js'

/**
 * A template's or task's playbook is a path in the repository, never an option of the
 * interpreter: a playbook of `-c` once made `bash -c '<next argument>'` run whatever the
 * template's arguments or variables said. Each case plants a command that would create a
 * canary file if it ever ran; the task must end in error and the file must not exist.
 */
describe.each(dialects())('playbook paths reaching the interpreter on %s', (dialect) => {
  let server: TestServer
  let world: World
  let scratch: string
  let repoPath: string
  let tp: TaskProject
  let manager: ProjectResources

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'flagman-attack-paths-'))
    repoPath = join(scratch, 'repo')
    const outside = join(scratch, 'outside.sh')
    writeFileSync(outside, `touch "${join(scratch, 'outside-ran')}"\necho outside ran\n`)
    execFileSync('git', ['init', '-q', '-b', 'main', repoPath])
    writeFileSync(join(repoPath, 'ok.sh'), 'echo "ok ran as $0"\n')
    writeFileSync(join(repoPath, 'ok.py'), 'import sys\nprint("ok ran as", sys.argv[0])\n')
    execFileSync('git', ['add', '.'], { cwd: repoPath })
    execFileSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@example.test', 'commit', '-q', '-m', 'ok'],
      { cwd: repoPath },
    )
    // A local repository is used in place: a link in it points at a script outside.
    symlinkSync(outside, join(repoPath, 'linked.sh'))

    server = await startTestServer(dialect)
    world = new World(server)
    await activateScriptApps(world)
    tp = await TaskProject.create(world, repoPath)
    const managerPerson: Person = await world.newUser()
    await world.addMember(tp.p.projectId, managerPerson.id, 'manager')
    manager = new ProjectResources(world.request.bind(world), managerPerson.as, tp.p.projectId)
  }, 60_000)

  afterAll(async () => {
    await server?.stop()
    if (scratch) rmSync(scratch, { recursive: true, force: true })
  })

  const canary = (): string => join(scratch, unique('canary'))

  /** Code for the app that creates the file when run by `bash -c` or `python3 -c`. */
  const code = (app: 'bash' | 'python', file: string): string =>
    app === 'bash' ? `touch ${file}` : `open(${JSON.stringify(file)}, "w")`

  /** Creates a template as the manager; null when the API already refuses it. */
  async function managerTemplate(fields: Record<string, unknown>): Promise<number | null> {
    const result = await manager.request('POST', '/templates', {
      name: unique('tpl'),
      project_id: tp.p.projectId,
      repository_id: tp.repositoryId,
      ...fields,
    })
    if (result.status === 400) return null
    expect(result.status, result.text).toBe(201)
    return (result.body as { id: number }).id
  }

  /** Runs the template as the manager; the task must end in error with the given line. */
  async function expectRefusedRun(template: number, line: string): Promise<string[]> {
    const created = await manager.request('POST', '/tasks', { template_id: template })
    expect(created.status, created.text).toBe(201)
    const id = (created.body as { id: number }).id
    const done = await tp.waitFor(id)
    const lines = await tp.lines(id)
    expect(done.status, lines.join('\n')).toBe('error')
    expect(lines).toContain(line)
    return lines
  }

  it('a manager-made bash or python template with playbook -c runs nothing', async () => {
    for (const app of ['bash', 'python'] as const) {
      for (const playbook of ['-c', '--command', '-']) {
        const file = canary()
        const template = await managerTemplate({
          app,
          playbook,
          arguments: JSON.stringify([code(app, file)]),
          survey_vars: [],
        })
        if (template !== null) {
          await expectRefusedRun(template, `Playbook "${playbook}" is not a file in the repository`)
        }
        expect(existsSync(file)).toBe(false)
      }
    }
  })

  it('an extra variable planted as code is never run through -c', async () => {
    const file = canary()
    // `bash -c 'x; touch …=1'` would run the touch.
    const environment = await tp.p.environment(unique('env'), {
      json: JSON.stringify({ [`x; touch ${file}`]: '1' }),
    })
    const template = await managerTemplate({
      app: 'bash',
      playbook: '-c',
      environment_id: environment.id,
    })
    if (template !== null) {
      await expectRefusedRun(template, 'Playbook "-c" is not a file in the repository')
    }
    expect(existsSync(`${file}=1`)).toBe(false)
    expect(existsSync(file)).toBe(false)
  })

  it('a task overriding the playbook with -c runs nothing', async () => {
    for (const app of ['bash', 'python'] as const) {
      const file = canary()
      const template = await tp.template(app === 'bash' ? 'ok.sh' : 'ok.py', {
        allow_override_args_in_task: true,
      })
      const created = await tp.post({
        template_id: template,
        playbook: '-c',
        arguments: JSON.stringify([code(app, file)]),
      })
      if (created.status === 201) {
        const id = (created.body as { id: number }).id
        const done = await tp.waitFor(id)
        const lines = await tp.lines(id)
        expect(done.status, lines.join('\n')).toBe('error')
        expect(lines).toContain('Playbook "-c" is not a file in the repository')
      } else {
        expectError(created, 400)
      }
      expect(existsSync(file)).toBe(false)
    }
  })

  it('a symbolic link out of the repository is refused', async () => {
    const template = await managerTemplate({ app: 'bash', playbook: 'linked.sh' })
    expect(template).not.toBeNull()
    const lines = await expectRefusedRun(
      template ?? 0,
      'Playbook "linked.sh" is outside the repository',
    )
    expect(lines).not.toContain('outside ran')
    expect(existsSync(join(scratch, 'outside-ran'))).toBe(false)
  })

  it('a real script still runs, by its absolute path', async () => {
    for (const playbook of ['ok.sh', 'ok.py']) {
      const task = await tp.run(await tp.template(playbook))
      const done = await tp.waitFor(task.id)
      const lines = await tp.lines(task.id)
      expect(done.status, lines.join('\n')).toBe('success')
      expect(lines.some((l) => l.startsWith('ok ran as /') && l.endsWith(`/${playbook}`))).toBe(
        true,
      )
    }
  })
})
