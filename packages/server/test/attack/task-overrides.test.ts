import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { ActiveTask, TaskWithTemplate } from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { expectBody, expectError, type HttpResult } from '../support/http.js'
import { ProjectResources } from '../support/resources.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { activateScriptApps, gitFixture, TaskProject } from '../support/tasks.js'
import { setAppsActive } from '../support/templates.js'

/*
 * Who may change what a task runs: a task runner can only run a template as its managers set
 * it up (survey variables of the declared types, harmless options), never another program,
 * playbook, branch or Ansible connection setting. Refused requests store nothing.
 */

const Item = z.object({ id: z.number() }).catchall(z.unknown())

const SURVEY = [
  { name: 'count', title: 'Count', type: 'int' },
  {
    name: 'color',
    title: 'Color',
    type: 'enum',
    values: [
      { name: 'Red', value: 'red' },
      { name: 'Blue', value: 'blue' },
    ],
  },
  { name: 'label', title: 'Label', type: '' },
  { name: 'token', title: 'Token', type: 'secret' },
  { name: 'ansible_user', title: 'Remote user', type: '' },
  { name: 'ansible_python_interpreter', title: 'Python', type: '' },
]

describe.each(dialects())('task overrides on %s', (dialect) => {
  let server: TestServer
  let world: World
  let repo: ReturnType<typeof gitFixture>
  /** The project as its owner (an administrator). */
  let owner: TaskProject
  let runner: TaskProject
  let manager: TaskProject
  let runnerPerson: Person

  const as = (person: Person): TaskProject =>
    new TaskProject(
      world,
      new ProjectResources(
        (method, path, options) => world.request(method, path, options),
        person.as,
        owner.p.projectId,
      ),
      owner.repositoryId,
    )

  /** The project's tasks and events, to show that a refused request left nothing behind. */
  const snapshot = async () => ({
    tasks: (await owner.p.list('/tasks', TaskWithTemplate)).map((t) => t.id),
    events: (await owner.p.list('/events', z.unknown())).length,
  })

  /** Asserts a 4xx `{"error"}` answer. */
  const refused = (result: HttpResult): void => {
    expect(result.status, result.text).toBeGreaterThanOrEqual(400)
    expect(result.status, result.text).toBeLessThan(500)
    expectError(result, result.status)
  }

  beforeAll(async () => {
    repo = gitFixture()
    server = await startTestServer(dialect)
    world = new World(server)
    await activateScriptApps(world)
    await setAppsActive(world, ['ansible'], true)
    owner = await TaskProject.create(world, repo.path)
    runnerPerson = await world.newUser()
    const managerPerson = await world.newUser()
    await world.addMember(owner.p.projectId, runnerPerson.id, 'task_runner')
    await world.addMember(owner.p.projectId, managerPerson.id, 'manager')
    runner = as(runnerPerson)
    manager = as(managerPerson)
  }, 60_000)

  afterAll(async () => {
    await server?.stop()
    repo?.dispose()
  })

  it('refuses the option-as-playbook exploit from a task runner, with or without overrides', async () => {
    const key = join(server.dataDir, 'access-key-encryption')
    const canary = join(server.dataDir, unique('canary'))
    const templates: number[] = []
    for (const playbook of ['ok.sh', 'hello.py']) {
      for (const allow of [false, true]) {
        templates.push(await owner.template(playbook, { allow_override_args_in_task: allow }))
      }
    }
    const open = await owner.template('ok.sh', { allow_override_args_in_task: true })
    const before = await snapshot()
    for (const tpl of templates) {
      for (const environment of [{ [`id; cat ${key};x`]: '1' }, { [`touch ${canary};x`]: '1' }]) {
        const body = { template_id: tpl, playbook: '-c', environment: JSON.stringify(environment) }
        refused(await runner.post(body))
        // Without the playbook the variable name alone is refused as well.
        refused(await runner.post({ ...body, playbook: undefined }))
      }
    }
    // Nobody may pass an option as the playbook.
    for (const who of [owner, manager]) {
      expectError(
        await who.post({ template_id: open, playbook: '-c' }),
        400,
        "playbook can not start with '-'",
      )
    }
    expect(await snapshot()).toEqual(before)
    expect(existsSync(canary)).toBe(false)
  })

  it('lets only those who can edit the template override its playbook', async () => {
    const closed = await owner.template('ok.sh')
    const open = await owner.template('ok.sh', { allow_override_args_in_task: true })
    const before = await snapshot()
    expectError(
      await runner.post({ template_id: open, playbook: 'fail.sh' }),
      403,
      "Only users who can manage the project's resources may override the playbook",
    )
    for (const who of [runner, manager, owner]) {
      expectError(
        await who.post({ template_id: closed, playbook: 'fail.sh' }),
        400,
        'This template does not allow overriding the playbook',
      )
    }
    expect(await snapshot()).toEqual(before)

    // Naming the template's own playbook is no override.
    const same = await runner.run(closed, { playbook: 'ok.sh' })
    expect((await owner.waitFor(same.id)).status).toBe('success')
    const overridden = await manager.run(open, { playbook: 'fail.sh' })
    expect((await owner.waitFor(overridden.id)).status).toBe('error')
    expect(await owner.lines(overridden.id)).toContain('about to fail')
  })

  it("refuses Ansible's code-running variables from a task runner, even declared or with overrides", async () => {
    const closed = await owner.template('ok.sh', { survey_vars: SURVEY })
    const open = await owner.template('ok.sh', {
      survey_vars: SURVEY,
      allow_override_args_in_task: true,
    })
    const before = await snapshot()
    for (const tpl of [closed, open]) {
      for (const name of [
        'ansible_python_interpreter',
        'ansible_connection',
        'ansible_shell_executable',
        'ansible_ssh_common_args',
        'ansible_become_method',
        'ANSIBLE_SSH_EXTRA_ARGS',
      ]) {
        const result = await runner.post({
          template_id: tpl,
          environment: JSON.stringify({ [name]: '/usr/bin/env' }),
        })
        expectError(result, 400, new RegExp(`^Variable ${name} is not allowed`))
      }
      expectError(
        await runner.post({ template_id: tpl, secret: '{"ansible_become_password":"x"}' }),
        400,
        /ansible_become_password is not allowed/,
      )
    }
    // Other ansible_ names only as declared survey variables.
    expectError(
      await runner.post({ template_id: open, environment: '{"ansible_host":"elsewhere"}' }),
      400,
      /ansible_host is not allowed: names starting with ansible_/,
    )
    // The server's own variable: from nobody.
    for (const who of [runner, manager, owner]) {
      expectError(
        await who.post({ template_id: open, environment: '{"semaphore_vars":{}}' }),
        400,
        /semaphore_vars is set by the server/,
      )
    }
    expect(await snapshot()).toEqual(before)

    const declared = await runner.run(closed, { environment: '{"ansible_user":"deploy"}' })
    expect((await owner.waitFor(declared.id)).status).toBe('success')
    // Those who can edit the template keep their freedom.
    const free = await manager.run(closed, {
      environment: '{"ansible_python_interpreter":"/usr/bin/python3","extra":{"a":1}}',
    })
    expect((await owner.waitFor(free.id)).status).toBe('success')
  })

  it('holds a task runner to the survey: declared variables of the declared types', async () => {
    const closed = await owner.template('ok.sh', { survey_vars: SURVEY })
    const open = await owner.template('ok.sh', {
      survey_vars: SURVEY,
      allow_override_args_in_task: true,
    })
    const before = await snapshot()
    const cases: Array<[number, Record<string, unknown>, RegExp]> = [
      [closed, { environment: '{"count":"3a"}' }, /count must be an integer/],
      [closed, { environment: '{"count":3.5}' }, /count must be an integer/],
      [closed, { environment: '{"count":true}' }, /count must be an integer/],
      [closed, { environment: '{"color":"green"}' }, /color must be one of: red, blue/],
      [closed, { environment: '{"color":["red"]}' }, /color must be one of/],
      [closed, { environment: '{"label":5}' }, /label must be text/],
      [closed, { environment: '{"label":{"nested":"x"}}' }, /label must be text/],
      [closed, { environment: '{"token":"s"}' }, /token is a secret and must be sent in secret/],
      [closed, { secret: '{"label":"x"}' }, /label is not a secret/],
      [closed, { environment: '{"other":"1"}' }, /"other" is not a survey variable/],
      [closed, { secret: '{"other":"1"}' }, /"other" is not a survey variable/],
      [open, { environment: '{"count":"x"}' }, /count must be an integer/],
      [open, { environment: '{"bad name":"1"}' }, /letters, digits and underscores/],
      [open, { environment: '{"1st":"1"}' }, /letters, digits and underscores/],
    ]
    for (const [tpl, fields, message] of cases) {
      expectError(await runner.post({ template_id: tpl, ...fields }), 400, message)
    }
    expect(await snapshot()).toEqual(before)

    const ok = await runner.run(closed, {
      environment: JSON.stringify({ count: 3, color: 'blue', label: 'hi' }),
      secret: JSON.stringify({ token: 'hidden-value' }),
    })
    expect((await owner.waitFor(ok.id)).status).toBe('success')
    const args = (await owner.lines(ok.id)).find((l) => l.startsWith('args:')) ?? ''
    expect(args).toContain('count=3')
    expect(args).toContain('color=blue')
    const digits = await runner.run(closed, { environment: '{"count":"12"}' })
    expect((await owner.waitFor(digits.id)).status).toBe('success')
    // With overrides, other plain names and nested values are accepted.
    const more = await runner.run(open, {
      environment: JSON.stringify({ count: '1', extra_flag: 'on', nested: { a: [1] } }),
    })
    expect((await owner.waitFor(more.id)).status).toBe('success')
    expect((await owner.lines(more.id)).some((l) => l.includes('extra_flag=on'))).toBe(true)
  })

  it('lets a task runner pick a branch or commit only where the template allows it', async () => {
    const closed = await owner.template('ok.sh')
    const open = await owner.template('ok.sh', { allow_override_args_in_task: true })
    const switched = await owner.template('ok.sh', {
      task_params: { allow_override_branch_in_task: true },
    })
    const before = await snapshot()
    expectError(
      await runner.post({ template_id: closed, git_branch: 'main' }),
      403,
      /does not allow choosing the branch/,
    )
    expectError(
      await runner.post({ template_id: closed, commit_hash: 'abcdef12' }),
      403,
      /does not allow choosing the commit/,
    )
    for (const [branch, message] of [
      ['--upload-pack=touch x', "git_branch can not start with '-'"],
      ['-b', "git_branch can not start with '-'"],
      ['main branch', 'git_branch can not contain spaces or control characters'],
      ['main\tx', 'git_branch can not contain spaces or control characters'],
      ['a..b', "git_branch can not contain '..'"],
      ['a:b', 'git_branch can not contain any of the characters ~ ^ : ? * [ \\'],
      ['refs/.hidden', "git_branch parts can not start with '.' or end with '.lock'"],
      ['main.lock', "git_branch parts can not start with '.' or end with '.lock'"],
      ['main/', "git_branch can not start or end with '/' or contain '//'"],
      ['@', "git_branch can not be '@' or contain '@{'"],
    ] as const) {
      for (const who of [runner, owner]) {
        expectError(await who.post({ template_id: open, git_branch: branch }), 400, message)
      }
    }
    expect(await snapshot()).toEqual(before)

    for (const tpl of [open, switched]) {
      const task = await runner.run(tpl, { git_branch: 'main' })
      expect((await owner.waitFor(task.id)).status).toBe('success')
    }
    const managed = await manager.run(closed, { git_branch: 'main' })
    expect((await owner.waitFor(managed.id)).status).toBe('success')
  })

  it("limits a task runner's arguments to harmless options", async () => {
    const key = await owner.p.key(unique('key'))
    const inventory = await owner.p.inventory(unique('inv'), key.id, {
      inventory: 'localhost ansible_connection=local',
    })
    const ansible = expectBody(
      await owner.p.request('POST', '/templates', {
        name: unique('tpl'),
        project_id: owner.p.projectId,
        app: 'ansible',
        playbook: 'site.yml',
        inventory_id: inventory.id,
        repository_id: owner.repositoryId,
        allow_override_args_in_task: true,
        arguments: '["--ssh-common-args=-o StrictHostKeyChecking=no"]',
      }),
      201,
      Item,
    ).id
    const bash = await owner.template('ok.sh', { allow_override_args_in_task: true })
    const canary = join(server.dataDir, unique('canary'))
    const before = await snapshot()
    const forbidden = [
      [`--ssh-extra-args=-oProxyCommand=touch ${canary}`],
      ['--ssh-common-args', `-oProxyCommand=touch ${canary}`],
      ['-c', 'local'],
      ['--connection=local'],
      ['--conn=local'],
      ['-M', '/tmp'],
      ['--become-method=su'],
      ['-b'],
      ['--vault-password-file', canary],
      ['-i', canary],
      ['other.yml'],
      ['-l', `@${canary}`],
      ['--extra-vars', `@${canary}`],
    ]
    for (const args of forbidden) {
      expectError(await runner.post({ template_id: ansible, arguments: JSON.stringify(args) }), 403)
    }
    for (const args of [
      ['-e', 'ansible_connection=local'],
      ['--extra-vars={"ansible_python_interpreter":"/bin/sh"}'],
      ['-e', 'x={{ lookup("pipe", "id") }}'],
    ]) {
      expectError(await runner.post({ template_id: ansible, arguments: JSON.stringify(args) }), 400)
    }
    expectError(
      await runner.post({
        template_id: ansible,
        environment: '{"note":"{{ lookup(\'pipe\', \'id\') }}"}',
      }),
      400,
      /can not contain template markup/,
    )
    expectError(
      await runner.post({ template_id: ansible, limit: `@${canary}` }),
      403,
      /Reading hosts from a file/,
    )
    expect(await snapshot()).toEqual(before)
    expect(existsSync(canary)).toBe(false)

    // Harmless options, the template's own options and script arguments are accepted.
    for (const args of [
      ['-v', '--check', '--limit', 'localhost', '-e', 'greeting=hi'],
      ['--ssh-common-args=-o StrictHostKeyChecking=no'],
    ]) {
      expectBody(
        await runner.post({ template_id: ansible, arguments: JSON.stringify(args) }),
        201,
        Item,
      )
    }
    const script = await runner.run(bash, { arguments: '["-c","--rcfile=x"]' })
    expect((await owner.waitFor(script.id)).status).toBe('success')
    expect((await owner.lines(script.id)).some((l) => l.endsWith('-c --rcfile=x'))).toBe(true)
    // Those who can edit the template pass what they like.
    expectBody(
      await manager.post({ template_id: ansible, arguments: '["--connection=local"]' }),
      201,
      Item,
    )
  })

  it('answers 404 for a task that does not exist, on every task route', async () => {
    const admin = await world.admin()
    expectError(await world.request('GET', '/api/tasks/99999', { as: admin.as }), 404)
    expectError(await world.request('DELETE', '/api/tasks/99999', { as: admin.as }), 404)
    const task = await owner.run(await owner.template('ok.sh'))
    await owner.waitFor(task.id)
    expectBody(
      await world.request('GET', `/api/tasks/${task.id}`, { as: admin.as }),
      200,
      z.array(ActiveTask),
    )
    for (const [method, path, json] of [
      ['GET', '/tasks/99999', undefined],
      ['GET', '/tasks/99999/output', undefined],
      ['GET', '/tasks/99999/raw_output', undefined],
      ['POST', '/tasks/99999/stop', { force: false }],
      ['POST', '/tasks/99999/confirm', undefined],
      ['POST', '/tasks/99999/reject', undefined],
      ['DELETE', '/tasks/99999', undefined],
      ['GET', '/templates/99999/tasks', undefined],
      ['GET', '/templates/99999/tasks/last', undefined],
      ['GET', '/templates/99999/stats', undefined],
    ] as const) {
      expectError(await owner.p.request(method, path, json), 404)
    }
  })
})
