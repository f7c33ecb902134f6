import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AccessKey } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { expectBody, expectError, expectNoContent } from '../support/http.js'
import { ProjectResources, projectRows } from '../support/resources.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { activateScriptApps, TaskProject } from '../support/tasks.js'

/**
 * A repository URL or branch is handed to git: one that git would read as an option
 * (`--upload-pack=…`, `-c core.sshCommand=…`, `--config=…`) runs any command the author
 * names. The API refuses them, so nothing is stored; the executor also puts `--` before
 * every URL and refuses option-like branches, for values stored before.
 */

const Item = z.object({ id: z.number() }).catchall(z.unknown())

describe.each(dialects())('git options in repositories on %s', (dialect) => {
  let server: TestServer
  let world: World
  let admin: Person
  let db: Db
  let p: ProjectResources
  let key: AccessKey
  let scratch: string
  let source: string

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'flagman-attack-git-'))
    source = join(scratch, 'source')
    execFileSync('git', ['init', '-q', '-b', 'main', source])
    writeFileSync(join(source, 'ok.sh'), 'echo "cloned and ran"\n')
    execFileSync('git', ['add', '.'], { cwd: source })
    execFileSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@example.test', 'commit', '-q', '-m', 'ok'],
      { cwd: source },
    )
    server = await startTestServer(dialect)
    world = new World(server)
    admin = await world.admin()
    db = await world.openDb()
    await activateScriptApps(world)
    const project = await world.newProject()
    p = new ProjectResources(world.request.bind(world), admin.as, project.id)
    key = await p.key(unique('none'))
  }, 60_000)

  afterAll(async () => {
    await db?.destroy()
    await server?.stop()
    if (scratch) rmSync(scratch, { recursive: true, force: true })
  })

  const canary = (): string => join(scratch, unique('canary'))

  function body(fields: Record<string, unknown> = {}) {
    return {
      name: unique('repo'),
      project_id: p.projectId,
      git_url: 'https://example.test/app.git',
      git_branch: 'main',
      ssh_key_id: key.id,
      ...fields,
    }
  }

  const rows = (): Promise<string> => projectRows(db, 'repository', p.projectId)

  function optionUrls(file: string): string[] {
    return [
      `--upload-pack=touch ${file}`,
      `--upload-pack=touch:${file}`,
      `-c core.sshCommand=touch ${file}`,
      `-ccore.sshCommand=touch:${file}`,
      `--config=core.sshCommand=touch ${file}`,
      `--config=core.sshCommand=touch:${file}`,
      `-oProxyCommand=touch:${file}`,
      `ssh://-oProxyCommand=touch%20${file}/repo.git`,
      `ssh://-oProxyCommand=touch@host/repo.git`,
      'git@-oProxyCommand=x:repo.git',
      `ext::sh -c touch% ${file}`,
      'ext::sh',
      'host::address',
    ]
  }

  it('refuses option-like URLs on create, storing nothing', async () => {
    const file = canary()
    const before = await rows()
    for (const git_url of optionUrls(file)) {
      expectError(
        await p.request('POST', '/repositories', body({ git_url })),
        400,
        /^Incorrect URL/,
      )
    }
    expect(await rows()).toBe(before)
    expect(existsSync(file)).toBe(false)
  })

  it('refuses option-like URLs on update, changing nothing', async () => {
    const file = canary()
    const repo = expectBody(await p.request('POST', '/repositories', body()), 201, Item)
    const before = await rows()
    for (const git_url of optionUrls(file)) {
      expectError(
        await p.request('PUT', `/repositories/${repo.id}`, { ...body({ git_url }), id: repo.id }),
        400,
        /^Incorrect URL/,
      )
    }
    expect(await rows()).toBe(before)
  })

  it('refuses a branch that starts with a dash, and keeps accepting ordinary URLs', async () => {
    const before = await rows()
    for (const git_branch of ['--upload-pack=touch x', '-b', '--orphan']) {
      expectError(
        await p.request('POST', '/repositories', body({ git_branch })),
        400,
        /^Incorrect branch: a branch name can not start with "-"$/,
      )
    }
    expect(await rows()).toBe(before)
    for (const git_url of [
      'git@example.test:team/app-x.git',
      'ssh://git@example.test:2222/team/app.git',
      'https://us-er@example.test/team/app.git',
      'file:///srv/git/app.git',
      '/srv/git/app',
    ]) {
      const git_branch = git_url.startsWith('/') ? '' : 'feature/-x'
      expectBody(await p.request('POST', '/repositories', body({ git_url, git_branch })), 201, Item)
    }
  })

  it('ends a task whose branch looks like an option in error, before git runs', async () => {
    const file = canary()
    const tp = await TaskProject.create(world, source)
    const repo = expectBody(
      await tp.p.request('POST', '/repositories', {
        name: unique('cloned'),
        project_id: tp.p.projectId,
        git_url: `file://${source}`,
        git_branch: 'main',
        ssh_key_id: (await tp.p.key(unique('none'))).id,
      }),
      201,
      Item,
    )
    const template = await tp.template('ok.sh', {
      repository_id: repo.id,
      git_branch: `--upload-pack=touch ${file}`,
    })
    const task = await tp.run(template)
    const done = await tp.waitFor(task.id)
    const lines = await tp.lines(task.id)
    expect(done.status, lines.join('\n')).toBe('error')
    expect(lines.join('\n')).toMatch(/branch "--upload-pack=touch .*" is not a valid branch name/)
    expect(existsSync(file)).toBe(false)

    // The same repository on its own branch clones and runs.
    const fine = await tp.run(await tp.template('ok.sh', { repository_id: repo.id }))
    expect((await tp.waitFor(fine.id)).status).toBe('success')
    expect(await tp.lines(fine.id)).toContain('cloned and ran')
    expectNoContent(await tp.p.request('DELETE', `/templates/${template}`))
  })
})
