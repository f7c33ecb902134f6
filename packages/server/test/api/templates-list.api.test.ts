import { Template } from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { dialects } from '../support/databases.js'
import { World } from '../support/fixtures.js'
import { expectBody, expectError } from '../support/http.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { activateScriptApps, gitRepository, TaskProject } from '../support/tasks.js'

const NAMES = ['Deploy web', 'deploy API', 'Backup 100%', 'build_all', 'Zeta', 'alpha']
const List = z.array(Template)

describe.each(dialects())('template list search and paging on %s', (dialect) => {
  let server: TestServer
  let repo: ReturnType<typeof gitRepository>
  let tp: TaskProject

  const list = async (query = '') =>
    expectBody(await tp.p.request('GET', `/templates${query}`), 200, List)
  const names = async (query: string) => (await list(query)).map((t) => t.name)

  beforeAll(async () => {
    repo = gitRepository({ 'a.sh': 'echo a\n' })
    server = await startTestServer(dialect)
    const world = new World(server)
    await activateScriptApps(world)
    tp = await TaskProject.create(world, repo.path)
    for (const name of NAMES) await tp.template('a.sh', { name })
  }, 120_000)

  afterAll(async () => {
    await server?.stop()
    repo?.dispose()
  })

  it('answers every template without parameters, as before', async () => {
    const all = await list()
    expect(all).toHaveLength(NAMES.length)
    expect(all.map((t) => t.name)).toEqual(await names('?sort=name&order=asc'))
    expect(Object.keys(all[0]!).sort()).toEqual(Object.keys(Template.shape).sort())
  })

  it('keeps the templates whose name holds the text, in any case, literally', async () => {
    expect((await names('?search=deploy')).sort()).toEqual(['Deploy web', 'deploy API'].sort())
    expect(await names('?search=100%25')).toEqual(['Backup 100%'])
    expect(await names('?search=%25')).toEqual(['Backup 100%'])
    expect(await names('?search=_')).toEqual(['build_all'])
    expect(await names('?search=nothing-like-this')).toEqual([])
  })

  it('pages the sorted list', async () => {
    const all = await names('?sort=name')
    expect(await names('?sort=name&limit=2')).toEqual(all.slice(0, 2))
    expect(await names('?sort=name&limit=2&offset=2')).toEqual(all.slice(2, 4))
    expect(await names('?sort=name&offset=4')).toEqual(all.slice(4))
    expect(await names('?sort=name&limit=2&offset=100')).toEqual([])
    expect(await names('?search=deploy&limit=1&order=desc')).toHaveLength(1)
  })

  it('refuses bad parameters', async () => {
    for (const query of ['limit=0', 'limit=1001', 'limit=x', 'offset=-1', 'offset=1.5']) {
      expectError(await tp.p.request('GET', `/templates?${query}`), 400, /limit|offset/)
    }
    expectError(
      await tp.p.request('GET', `/templates?search=${'x'.repeat(256)}`),
      400,
      /search must be at most 255/,
    )
  })
})
