import { getCurrentUser, listProjects } from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe.each(dialects())('server on %s', (dialect) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(dialect)
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('answers ping with pong as plain text', async () => {
    const response = await server.fetch('/api/ping')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await response.text()).toBe('pong')
  })

  it('signs the first administrator in', async () => {
    const admin = await server.admin()
    const me = await admin.call(getCurrentUser)
    expect(me).toMatchObject({ username: 'admin', admin: true, can_create_project: true })
    expect(await admin.call(listProjects)).toEqual([])
  })
})
