import { execFileSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { dialects } from '../support/databases.js'
import { World } from '../support/fixtures.js'
import { expectBody, expectError, expectNoContent } from '../support/http.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { TaskProject } from '../support/tasks.js'
import { setAppsActive } from '../support/templates.js'

const PLAYBOOK = `- hosts: all
  gather_facts: false
  tasks:
    - name: greet
      ansible.builtin.debug:
        msg: "greeting={{ greeting }} from={{ source }} token_length={{ lookup('env', 'API_TOKEN') | length }}"
      tags: [greet]
    - name: details
      ansible.builtin.debug:
        msg: "details repository={{ semaphore_vars.task_details.repository_name }} inventory={{ semaphore_vars.task_details.inventory_name }} commit={{ semaphore_vars.task_details.commit_hash }} user={{ semaphore_vars.task_details.username }}"
      tags: [greet]
    - name: not selected
      ansible.builtin.debug:
        msg: "this task is not tagged greet"
      tags: [other]
`

/** A repository with an Ansible playbook and a Terraform module folder. */
function appsRepository(): string {
  const path = mkdtempSync(join(tmpdir(), 'flagman-apps-repo-'))
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.test',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.test',
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd: path, env, stdio: 'pipe' })
  git('init', '-q', '-b', 'main')
  writeFileSync(join(path, 'site.yml'), PLAYBOOK)
  writeFileSync(join(path, 'main.tf'), '# module\n')
  git('add', '.')
  git('commit', '-q', '-m', 'apps')
  return path
}

/**
 * A stand-in `terraform` that records its arguments and prints a plan with changes: the
 * real binary cannot be installed everywhere, and the server must call it exactly so.
 */
function terraformStandIn(): { bin: string; calls: () => string[] } {
  const bin = mkdtempSync(join(tmpdir(), 'flagman-bin-'))
  const log = join(bin, 'calls.log')
  writeFileSync(log, '')
  writeFileSync(
    join(bin, 'terraform'),
    `#!/bin/bash
echo "$*" >> "${log}"
case "$1" in
  plan) echo "Plan: 1 to add, 0 to change, 0 to destroy." ;;
  apply) echo "Apply complete! Resources: 1 added, 0 changed, 0 destroyed." ;;
esac
`,
  )
  chmodSync(join(bin, 'terraform'), 0o755)
  return { bin, calls: () => readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) }
}

const Item = z.object({ id: z.number() }).catchall(z.unknown())

describe.each(dialects())('ansible and terraform tasks on %s', (dialect) => {
  let server: TestServer
  let world: World
  let repoPath: string
  let tf: ReturnType<typeof terraformStandIn>
  let tp: TaskProject

  beforeAll(async () => {
    repoPath = appsRepository()
    tf = terraformStandIn()
    server = await startTestServer(dialect, { PATH: `${tf.bin}:${process.env.PATH ?? ''}` })
    world = new World(server)
    await setAppsActive(world, ['ansible', 'terraform'], true)
    tp = await TaskProject.create(world, repoPath)
  }, 60_000)

  afterAll(async () => {
    await server?.stop()
    rmSync(repoPath, { recursive: true, force: true })
    rmSync(tf.bin, { recursive: true, force: true })
  })

  it('runs an ansible playbook with inventory, extra vars, env secrets and tags', async () => {
    const keys = await tp.p.list('/keys', Item)
    const none = keys.find((k) => k.name === 'None')!
    const inventory = await tp.p.inventory('local', none.id, {
      type: 'static',
      inventory: 'localhost ansible_connection=local ansible_python_interpreter=/usr/bin/python3',
    })
    const environment = await tp.p.environment('vars', {
      json: JSON.stringify({ greeting: 'from-environment', source: 'environment' }),
      secrets: [{ operation: 'create', type: 'env', name: 'API_TOKEN', secret: 'tok-123456789' }],
    })
    const template = expectBody(
      await tp.p.request('POST', '/templates', {
        name: 'Site',
        project_id: tp.p.projectId,
        app: 'ansible',
        playbook: 'site.yml',
        inventory_id: inventory.id,
        repository_id: tp.repositoryId,
        environment_id: environment.id,
        survey_vars: [{ name: 'greeting', title: 'Greeting', type: '', required: true }],
      }),
      201,
      Item,
    )
    expectError(
      await tp.post({
        template_id: template.id,
        environment: '{"greeting":"x"}',
        params: { tags: 'greet' },
      }),
      400,
      /Invalid task parameter tags/,
    )
    expectError(
      await tp.post({
        template_id: template.id,
        environment: '{"greeting":"x"}',
        params: { debug: 'yes' },
      }),
      400,
      /Invalid task parameter debug/,
    )
    const task = await tp.run(template.id, {
      environment: JSON.stringify({ greeting: 'hello' }),
      params: { tags: ['greet'] },
    })
    const done = await tp.waitFor(task.id, ['success', 'error', 'stopped'], 60_000)
    const lines = (await tp.lines(task.id)).join('\n')
    expect(done.status, lines).toBe('success')
    // Task values win over the environment's; the secret reaches the process, not the log.
    expect(lines).toContain('greeting=hello from=environment token_length=13')
    expect(lines).not.toContain('this task is not tagged greet')
    expect(lines).not.toContain('tok-123456789')
    expect(done.commit_hash).toMatch(/^[0-9a-f]{40}$/)
    const repository = await tp.p.get(
      `/repositories/${tp.repositoryId}`,
      z.object({ name: z.string() }).catchall(z.unknown()),
    )
    expect(lines).toContain(
      `details repository=${repository.name} inventory=local commit=${done.commit_hash} user=admin`,
    )
  })

  it('plans terraform, waits for confirmation, then applies; a rejected plan fails', async () => {
    const template = expectBody(
      await tp.p.request('POST', '/templates', {
        name: 'Infra',
        project_id: tp.p.projectId,
        app: 'terraform',
        repository_id: tp.repositoryId,
      }),
      201,
      Item,
    )
    const before = tf.calls().length
    const task = await tp.run(template.id)
    await tp.waitFor(task.id, ['waiting_confirmation'], 30_000)
    expectNoContent(await tp.p.request('POST', `/tasks/${task.id}/confirm`))
    expect((await tp.waitFor(task.id)).status).toBe('success')
    expect(tf.calls().slice(before)).toEqual([
      'init -lock=false -migrate-state',
      'workspace list',
      'workspace select -or-create=true default',
      'plan -lock=false',
      'apply -auto-approve -lock=false',
    ])
    expect(await tp.lines(task.id)).toContain(
      'Apply complete! Resources: 1 added, 0 changed, 0 destroyed.',
    )

    const rejected = await tp.run(template.id)
    await tp.waitFor(rejected.id, ['waiting_confirmation'], 30_000)
    expectNoContent(await tp.p.request('POST', `/tasks/${rejected.id}/reject`))
    expect((await tp.waitFor(rejected.id)).status).toBe('error')
    expect(tf.calls().some((call, i) => i > before + 4 && call.startsWith('apply'))).toBe(false)
  })

  it('takes the template task parameters as defaults: auto-approve and destroy', async () => {
    const template = expectBody(
      await tp.p.request('POST', '/templates', {
        name: 'Teardown',
        project_id: tp.p.projectId,
        app: 'terraform',
        repository_id: tp.repositoryId,
        task_params: { auto_approve: true, destroy: true },
      }),
      201,
      Item,
    )
    const before = tf.calls().length
    const task = await tp.run(template.id)
    expect((await tp.waitFor(task.id)).status).toBe('success')
    expect(tf.calls().slice(before)).toEqual([
      'init -lock=false -migrate-state',
      'workspace list',
      'workspace select -or-create=true default',
      'plan -lock=false -destroy',
      'apply -auto-approve -lock=false -destroy',
    ])
    // A task's own parameters win over the template's.
    const planOnly = await tp.run(template.id, { params: { plan: true, destroy: false } })
    expect((await tp.waitFor(planOnly.id)).status).toBe('success')
    expect(tf.calls().at(-1)).toBe('plan -lock=false')
  })
})
