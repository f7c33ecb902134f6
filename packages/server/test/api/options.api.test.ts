import { OptionEntry, Options } from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { World, type Person } from '../support/fixtures.js'
import { expectBody, expectError } from '../support/http.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe.each(dialects())('server options on %s', (dialect) => {
  let server: TestServer
  let world: World
  let admin: Person
  let user: Person

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
    admin = await world.admin()
    user = await world.newUser()
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('stores an option, answers it back and lists it with the app settings', async () => {
    const entry = { key: 'nav.unpinned_items', value: '["dashboard","history"]' }
    const set = await world.request('POST', '/api/options', { as: admin.as, json: entry })
    expect(expectBody(set, 200, OptionEntry)).toEqual(entry)
    const changed = { ...entry, value: '[]' }
    await world.request('POST', '/api/options', { as: admin.as, json: changed })
    await world.request('PUT', '/api/apps/bash', {
      as: admin.as,
      json: { active: true, priority: 700, title: 'Bash', path: '/bin/bash' },
    })
    const options = expectBody(
      await world.request('GET', '/api/options', { as: admin.as }),
      200,
      Options,
    )
    expect(options['nav.unpinned_items']).toBe('[]')
    expect(options['apps.bash.path']).toBe('/bin/bash')
  })

  it('leaves app settings to their own routes and checks the key', async () => {
    const cases: [unknown, RegExp][] = [
      [{ key: 'apps.bash.path', value: '/tmp/x' }, /PUT \/api\/apps/],
      [{ key: 'has space', value: '1' }, /dotted words/],
      [{ key: '', value: '1' }, /key can not be empty/],
      [{ key: 'a.b', value: 1 }, /value must be a string/],
    ]
    for (const [json, message] of cases) {
      expectError(await world.request('POST', '/api/options', { as: admin.as, json }), 400, message)
    }
    const options = expectBody(
      await world.request('GET', '/api/options', { as: admin.as }),
      200,
      Options,
    )
    expect(options['apps.bash.path']).not.toBe('/tmp/x')
    expect(options['has space']).toBeUndefined()
  })

  it('is for administrators only', async () => {
    expectError(await world.request('GET', '/api/options', { as: user.as }), 403)
    const json = { key: 'nav.x', value: '1' }
    expectError(await world.request('POST', '/api/options', { as: user.as, json }), 403)
    expectError(await world.request('GET', '/api/options'), 401)
  })
})
