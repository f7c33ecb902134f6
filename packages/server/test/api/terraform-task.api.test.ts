import { BACKEND_OVERRIDE_CONTENT, TerraformLockStatus, TerraformState } from '@flagman/contract'
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { dialects } from '../support/databases.js'
import { unique, World } from '../support/fixtures.js'
import { expectBody, expectError } from '../support/http.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { TaskProject } from '../support/tasks.js'
import { setAppsActive } from '../support/templates.js'

/*
 * Terraform tasks store their state in their workspace's HTTP backend. `terraform` can not be
 * installed here, so a stand-in takes its place: it records its command lines and, like the
 * real `http` backend, talks to the address it finds in TF_HTTP_* with basic authentication.
 */

const standIn = (log: string) => String.raw`#!/usr/bin/env python3
import base64, json, os, sys, urllib.request, urllib.error, uuid

LOG = ${JSON.stringify(log)}

def log(kind, value):
    with open(LOG, "a") as f:
        f.write(json.dumps({"kind": kind, "value": value}) + "\n")

def call(method, body=None, query=""):
    req = urllib.request.Request(os.environ["TF_HTTP_ADDRESS"] + query, data=body, method=method)
    auth = os.environ["TF_HTTP_USERNAME"] + ":" + os.environ["TF_HTTP_PASSWORD"]
    req.add_header("Authorization", "Basic " + base64.b64encode(auth.encode()).decode())
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req) as res:
            return res.status, res.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()

args = sys.argv[1:]
log("argv", " ".join(args))
log("env", sorted(k for k in os.environ if k.startswith("TF_HTTP_")))
if args[0] == "init":
    files = {}
    for name in os.listdir("."):
        if name.endswith(".tf"):
            with open(name) as f:
                files[name] = f.read()
    log("files", files)
    log("cwd", os.getcwd())
    log("credentials", {"address": os.environ.get("TF_HTTP_ADDRESS"), "username": os.environ.get("TF_HTTP_USERNAME"), "password": os.environ.get("TF_HTTP_PASSWORD")})
    print("the password is " + os.environ.get("TF_HTTP_PASSWORD", ""))
elif args[0] == "plan":
    status, body = call("GET")
    log("plan-get", status)
    print("Plan: 1 to add, 0 to change, 0 to destroy.")
elif args[0] == "apply":
    info = {"ID": str(uuid.uuid4()), "Operation": "OperationTypeApply", "Who": "stand-in", "Version": "1.9.0"}
    status, _ = call("LOCK", json.dumps(info).encode())
    log("lock", status)
    status, body = call("GET")
    serial = json.loads(body)["serial"] + 1 if status == 200 else 1
    state = {"version": 4, "serial": serial, "lineage": "stand-in-lineage", "resources": [{"mode": "managed", "type": "null_resource", "name": "web", "instances": [{"attributes": {"id": str(serial)}}]}], "outputs": {}}
    status, _ = call("POST", json.dumps(state).encode(), "?ID=" + info["ID"])
    log("post", status)
    if os.environ.get("STANDIN_KEEP_LOCK") != "1":
        status, _ = call("UNLOCK", json.dumps(info).encode())
        log("unlock", status)
    print("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.")
`

interface Entry {
  kind: string
  value: unknown
}

const Item = z.object({ id: z.number() }).catchall(z.unknown())

function moduleRepository(): string {
  const path = mkdtempSync(join(tmpdir(), 'flagman-tf-repo-'))
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.test',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.test',
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd: path, env, stdio: 'pipe' })
  git('init', '-q', '-b', 'main')
  writeFileSync(join(path, 'main.tf'), 'resource "null_resource" "web" {}\n')
  git('add', '.')
  git('commit', '-q', '-m', 'module')
  return path
}

describe.each(dialects())('terraform tasks with the state backend on %s', (dialect) => {
  let server: TestServer
  let world: World
  let repoPath: string
  let bin: string
  let logFile: string
  let tp: TaskProject

  beforeAll(async () => {
    repoPath = moduleRepository()
    bin = mkdtempSync(join(tmpdir(), 'flagman-tf-bin-'))
    logFile = join(bin, 'calls.jsonl')
    writeFileSync(join(bin, 'terraform'), standIn(logFile))
    chmodSync(join(bin, 'terraform'), 0o755)
    server = await startTestServer(dialect, { PATH: `${bin}:${process.env.PATH ?? ''}` })
    world = new World(server)
    await setAppsActive(world, ['terraform'], true)
    tp = await TaskProject.create(world, repoPath)
  }, 60_000)

  afterAll(async () => {
    await server?.stop()
    rmSync(repoPath, { recursive: true, force: true })
    rmSync(bin, { recursive: true, force: true })
  })

  /** What the stand-in recorded during one task (its log is emptied before each task). */
  function entries(kind: string): unknown[] {
    return readFileSync(logFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Entry)
      .filter((entry) => entry.kind === kind)
      .map((entry) => entry.value)
  }

  async function template(fields: Record<string, unknown>) {
    const created = expectBody(
      await tp.p.request('POST', '/templates', {
        name: unique('infra'),
        project_id: tp.p.projectId,
        app: 'terraform',
        repository_id: tp.repositoryId,
        ...fields,
      }),
      201,
      Item,
    )
    const workspace = created.inventory_id as number
    return { id: created.id, workspace, base: `/inventory/${String(workspace)}/terraform` }
  }

  async function run(templateId: number) {
    writeFileSync(logFile, '')
    const task = await tp.run(templateId)
    return tp.waitFor(task.id, undefined, 30_000)
  }

  it('stores the state of an apply in the workspace, through the backend file and TF_HTTP_*', async () => {
    const tpl = await template({ task_params: { override_backend: true, auto_approve: true } })
    const done = await run(tpl.id)
    expect(done.status).toBe('success')
    const argv = entries('argv')
    expect(argv).toEqual(['init -lock=false -migrate-state', 'plan', 'apply -auto-approve'])
    for (const names of entries('env')) {
      expect(names).toEqual([
        'TF_HTTP_ADDRESS',
        'TF_HTTP_LOCK_ADDRESS',
        'TF_HTTP_LOCK_METHOD',
        'TF_HTTP_PASSWORD',
        'TF_HTTP_UNLOCK_ADDRESS',
        'TF_HTTP_UNLOCK_METHOD',
        'TF_HTTP_USERNAME',
      ])
    }
    const [files] = entries('files') as Array<Record<string, string>>
    expect(files?.['backend.tf']).toBe(BACKEND_OVERRIDE_CONTENT)
    const [cwd] = entries('cwd') as string[]
    expect(existsSync(join(cwd ?? '', 'backend.tf'))).toBe(false)
    expect(existsSync(join(cwd ?? '', 'main.tf'))).toBe(true)
    expect(entries('lock')).toEqual([200])
    expect(entries('post')).toEqual([200])
    expect(entries('unlock')).toEqual([200])

    const [version] = await tp.p.list(`${tpl.base}/states`, TerraformState)
    expect(version).toMatchObject({
      task_id: done.id,
      source: 'task',
      serial: 1,
      lineage: 'stand-in-lineage',
      status: 'success',
    })

    // The password reached the program only through its environment and is masked in the log.
    const [credentials] = entries('credentials') as Array<{
      address: string
      username: string
      password: string
    }>
    expect(credentials?.password).toMatch(/^[a-z0-9]{40}$/)
    const lines = await tp.lines(done.id)
    expect(lines.join('\n')).not.toContain(credentials?.password)
    expect(lines).toContain('the password is ****')
    expect(lines).toContain("Using the workspace's HTTP backend (backend.tf)")
    for (const line of argv) expect(line).not.toContain(credentials?.password)

    // The task's own access ends with the task.
    const after = await fetch(credentials?.address ?? '', {
      headers: {
        Authorization: `Basic ${Buffer.from(`${credentials?.username}:${credentials?.password}`).toString('base64')}`,
      },
    })
    expect(after.status).toBe(404)

    // The next apply builds on the stored state.
    const second = await run(tpl.id)
    expect(second.status).toBe('success')
    const list = await tp.p.list(`${tpl.base}/states`, TerraformState)
    expect(list.map((v) => v.serial)).toEqual([2, 1])
    expect(entries('plan-get')).toEqual([200])
  })

  it('keeps the compatible command lines without the override, with TF_HTTP_* set', async () => {
    const tpl = await template({ task_params: { auto_approve: true } })
    const done = await run(tpl.id)
    expect(done.status).toBe('success')
    expect(entries('argv')).toEqual([
      'init -lock=false -migrate-state',
      'workspace list',
      'workspace select -or-create=true default',
      'plan -lock=false',
      'apply -auto-approve -lock=false',
    ])
    const [files] = entries('files') as Array<Record<string, string>>
    expect(Object.keys(files ?? {})).toEqual(['main.tf'])
    expect(entries('env')[0]).toContain('TF_HTTP_ADDRESS')
  })

  it('refuses to overwrite a file of the module, and unsafe backend file names', async () => {
    const tpl = await template({
      task_params: { override_backend: true, backend_filename: 'main.tf', auto_approve: true },
    })
    const done = await run(tpl.id)
    expect(done.status).toBe('error')
    expect(entries('argv')).toEqual([])
    expect((await tp.lines(done.id)).join('\n')).toMatch(
      /The backend file main\.tf already exists in the module directory/,
    )
    for (const name of ['x/../y.tf', '../backend.tf', '-backend.tf', 'backend.txt', '/tmp/a.tf']) {
      expectError(
        await tp.p.request('POST', '/templates', {
          name: unique('bad'),
          project_id: tp.p.projectId,
          app: 'terraform',
          repository_id: tp.repositoryId,
          task_params: { override_backend: true, backend_filename: name },
        }),
        400,
        /backend_filename/,
      )
    }
    expectError(
      await tp.p.request('POST', '/templates', {
        name: unique('bad'),
        project_id: tp.p.projectId,
        app: 'terraform',
        repository_id: tp.repositoryId,
        task_params: { override_backend: 'yes' },
      }),
      400,
      /override_backend must be true or false/,
    )
    const own = await template({
      task_params: {
        override_backend: true,
        backend_filename: 'flagman_override.tf',
        auto_approve: true,
      },
    })
    expect((await run(own.id)).status).toBe('success')
    const [files] = entries('files') as Array<Record<string, string>>
    expect(files?.['flagman_override.tf']).toBe(BACKEND_OVERRIDE_CONTENT)
  })

  it('releases a lock the task still holds when it ends', async () => {
    const environment = await tp.p.environment(unique('env'), {
      env: JSON.stringify({ STANDIN_KEEP_LOCK: '1' }),
    })
    const tpl = await template({
      environment_id: environment.id,
      task_params: { override_backend: true, auto_approve: true },
    })
    const done = await run(tpl.id)
    expect(done.status).toBe('success')
    expect(entries('unlock')).toEqual([])
    // Written once the task has ended, just after its final status.
    await tp.waitForLine(done.id, /^The Terraform state lock the task still held was released$/)
    const lock = await tp.p.get(`${tpl.base}/lock`, TerraformLockStatus)
    expect(lock.locked).toBe(false)
  })
})
