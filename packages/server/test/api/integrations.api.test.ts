import { createHmac } from 'node:crypto'
import { connect } from 'node:net'
import {
  Integration,
  IntegrationAlias,
  IntegrationDelivery,
  IntegrationExtractValue,
  IntegrationMatcher,
  IntegrationPartRefs,
  Refs,
  Task,
} from '@flagman/contract'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { expectBody, expectError, expectNoContent, type HttpResult } from '../support/http.js'
import { startTestServer, type TestServer } from '../support/server.js'
import {
  activateScriptApps,
  expectStatus,
  gitRepository,
  SCRIPTS,
  TaskProject,
} from '../support/tasks.js'

const SECRET = 'webhook-secret-value'

const sign = (body: string, secret = SECRET) =>
  createHmac('sha256', secret).update(body).digest('hex')

describe.each(dialects())('integrations on %s', (dialect) => {
  let server: TestServer
  let world: World
  let admin: Person
  let repo: { path: string; dispose(): void }
  let tp: TaskProject
  let templateId: number
  let secretKeyId: number

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
    admin = await world.admin()
    await activateScriptApps(world)
    repo = gitRepository({
      ...SCRIPTS,
      'hook.sh': 'echo "hook args:$*"\n',
      'env.sh': [
        'echo "ref=${REF-unset}"',
        'echo "preload=${LD_PRELOAD-unset}"',
        'echo "bashenv=${BASH_ENV-unset}"',
        'echo "pythonpath=${PYTHONPATH-unset}"',
        'echo "path=$PATH"',
        '',
      ].join('\n'),
    })
    tp = await TaskProject.create(world, repo.path)
    templateId = await tp.template('hook.sh')
    secretKeyId = (await tp.p.loginPasswordKey(unique('hook'), SECRET)).id
  })
  afterAll(async () => {
    await server?.stop()
    repo?.dispose()
  })

  const base = () => `/integrations`

  async function newIntegration(fields: Record<string, unknown> = {}): Promise<Integration> {
    const result = await tp.p.request('POST', base(), {
      name: unique('hook'),
      project_id: tp.p.projectId,
      template_id: templateId,
      ...fields,
    })
    return expectBody(result, 201, Integration)
  }

  async function alias(integrationId: number | null): Promise<{ id: number; name: string }> {
    const path = integrationId === null ? `${base()}/aliases` : `${base()}/${integrationId}/aliases`
    const made = expectBody(await tp.p.request('POST', path), 200, IntegrationAlias)
    const name = made.url.split('/').pop() ?? ''
    return { id: made.id, name }
  }

  function deliver(name: string, body: string, headers: Record<string, string> = {}) {
    return world.request('POST', `/api/integrations/${name}`, {
      raw: body,
      headers: { 'Content-Type': 'application/json', ...headers },
    })
  }

  async function tasksOf(integrationId: number): Promise<Task[]> {
    const all = await tp.p.list('/tasks', Task)
    return all.filter((t) => t.integration_id === integrationId)
  }

  async function deliveries(integrationId: number) {
    return tp.p.list(`${base()}/${integrationId}/deliveries`, IntegrationDelivery)
  }

  /** Polls until the integration has `count` deliveries recorded. */
  async function waitForDeliveries(integrationId: number, count: number) {
    const deadline = Date.now() + 20_000
    for (;;) {
      const list = await deliveries(integrationId)
      if (list.length >= count) return list
      if (Date.now() > deadline) throw new Error(`only ${list.length} deliveries recorded`)
      await new Promise((r) => setTimeout(r, 40))
    }
  }

  describe('the integrations API', () => {
    it('creates, lists, reads, updates and deletes integrations', async () => {
      const created = await newIntegration({
        name: 'b hook',
        auth_method: 'github',
        auth_secret_id: secretKeyId,
        task_params: { message: 'from a webhook' },
      })
      expect(created).toMatchObject({
        name: 'b hook',
        project_id: tp.p.projectId,
        template_id: templateId,
        auth_method: 'github',
        auth_secret_id: secretKeyId,
        auth_header: '',
        searchable: false,
        debounce: false,
        task_params: { message: 'from a webhook' },
      })
      const other = await newIntegration({ name: 'a hook' })
      const list = await tp.p.list(`${base()}?sort=name&order=asc`, Integration)
      const names = list.map((i) => i.name)
      expect(names.indexOf('a hook')).toBeLessThan(names.indexOf('b hook'))
      expect(await tp.p.get(`${base()}/${created.id}`, Integration)).toEqual(created)

      expectNoContent(
        await tp.p.request('PUT', `${base()}/${created.id}`, {
          ...created,
          name: 'renamed',
          searchable: true,
          debounce: true,
        }),
      )
      expect(await tp.p.get(`${base()}/${created.id}`, Integration)).toEqual({
        ...created,
        name: 'renamed',
        searchable: true,
        debounce: true,
      })
      expectNoContent(await tp.p.request('DELETE', `${base()}/${other.id}`))
      expectError(await tp.p.request('GET', `${base()}/${other.id}`), 404)
    })

    it("answers with the compatible API's messages and writes nothing on bad input", async () => {
      const before = await tp.p.list(base(), Integration)
      const body = { name: 'x', project_id: tp.p.projectId, template_id: templateId }
      const cases: Array<[unknown, number, string | RegExp]> = [
        [{ ...body, name: '' }, 400, 'No Name set for integration'],
        [{ ...body, name: '   ' }, 400, 'No Name set for integration'],
        [{ ...body, project_id: tp.p.projectId + 1000 }, 400, /Project ID in body and URL/],
        [{ ...body, auth_method: 'magic' }, 400, /auth_method/],
        [{ ...body, template_id: 'x' }, 400, /template_id/],
        [{ ...body, template_id: 999_999 }, 404, /Template/],
        [{ ...body, auth_secret_id: 999_999 }, 404, /Access key/],
        [{ ...body, task_params: [] }, 400, /task_params/],
      ]
      for (const [json, status, message] of cases) {
        expectError(await tp.p.request('POST', base(), json), status, message)
      }
      const none = (await tp.p.list('/keys', z.object({ id: z.number(), name: z.string() }))).find(
        (k) => k.name === 'None',
      )
      expectError(
        await tp.p.request('POST', base(), { ...body, auth_secret_id: none?.id }),
        400,
        /login_password/,
      )
      // A template of another project is as unknown as one that does not exist.
      const elsewhere = await TaskProject.create(world, repo.path)
      const foreign = await elsewhere.template('ok.sh')
      expectError(await tp.p.request('POST', base(), { ...body, template_id: foreign }), 404)
      expect(await tp.p.list(base(), Integration)).toEqual(before)

      // A field integrations do not have is ignored, not stored.
      const extra = await tp.p.request('POST', base(), { ...body, extra: 'extra-field-value' })
      const withExtra = expectBody(extra, 201, Integration)
      expect(withExtra).toMatchObject({ name: 'x', template_id: templateId })
      expect(extra.text).not.toContain('extra-field-value')
      expect(extra.body).not.toHaveProperty('extra')
      expect(await tp.p.get(`${base()}/${withExtra.id}`, Integration)).toEqual(withExtra)
      expectNoContent(await tp.p.request('DELETE', `${base()}/${withExtra.id}`))
      expect(await tp.p.list(base(), Integration)).toEqual(before)

      const made = await newIntegration()
      expectError(
        await tp.p.request('PUT', `${base()}/${made.id}`, { ...made, id: made.id + 1 }),
        400,
        'Integration ID in body and URL must be the same',
      )
      expectError(await tp.p.request('PUT', `${base()}/${made.id}`, { ...made, name: '' }), 400)
      expect(await tp.p.get(`${base()}/${made.id}`, Integration)).toEqual(made)
      expectError(await tp.p.request('GET', `${base()}/999999`), 404)
    })

    it('keeps matchers with their rules and messages', async () => {
      const integration = await newIntegration()
      const path = `${base()}/${integration.id}/matchers`
      const body = {
        integration_id: integration.id,
        name: 'branch',
        match_type: 'body',
        method: 'equals',
        body_data_type: 'json',
        key: 'ref',
        value: 'refs/heads/main',
      }
      const made = expectBody(await tp.p.request('POST', path, body), 200, IntegrationMatcher)
      expect(made).toMatchObject(body)
      const bad: Array<[unknown, string | RegExp]> = [
        [
          { ...body, integration_id: integration.id + 1 },
          'Extractor ID in body and URL must be the same',
        ],
        [{ ...body, match_type: undefined }, 'No Match Type set'],
        [{ ...body, key: '' }, 'No key set'],
        [{ ...body, match_type: 'header', key: '' }, 'No key set'],
        [{ ...body, value: '' }, 'No value set'],
        [{ ...body, value: undefined }, 'No value set'],
        [{ ...body, name: '' }, 'No Name set for integration'],
        [{ ...body, method: 'like' }, /method/],
      ]
      for (const [json, message] of bad) {
        expectError(await tp.p.request('POST', path, json), 400, message)
      }
      expect(await tp.p.list(path, IntegrationMatcher)).toEqual([made])

      expectNoContent(
        await tp.p.request('PUT', `${path}/${made.id}`, {
          ...made,
          method: 'contains',
          value: 'main',
        }),
      )
      expect(await tp.p.get(`${path}/${made.id}`, IntegrationMatcher)).toEqual({
        ...made,
        method: 'contains',
        value: 'main',
      })
      expectError(
        await tp.p.request('PUT', `${path}/${made.id}`, { ...made, key: '' }),
        400,
        'No key set',
      )
      expect(await tp.p.get(`${path}/${made.id}/refs`, IntegrationPartRefs)).toEqual({
        integrations: [],
      })
      expectNoContent(await tp.p.request('DELETE', `${path}/${made.id}`))
      expectError(await tp.p.request('GET', `${path}/${made.id}`), 404)
    })

    it('keeps extracted values with their rules and messages', async () => {
      const integration = await newIntegration()
      const path = `${base()}/${integration.id}/values`
      const body = {
        integration_id: integration.id,
        name: 'ref',
        value_source: 'body',
        body_data_type: 'json',
        key: 'ref',
        variable: 'GIT_REF',
      }
      const made = expectBody(await tp.p.request('POST', path, body), 201, IntegrationExtractValue)
      expect(made).toMatchObject(body)
      const bad: Array<[unknown, string | RegExp]> = [
        [
          { ...body, integration_id: integration.id + 1 },
          'Extractor ID in body and URL must be the same',
        ],
        [{ ...body, value_source: '' }, 'No Value Source defined'],
        [{ ...body, name: '' }, 'No Name set for integration'],
        [{ ...body, body_data_type: '' }, 'Value Source but no body data type set'],
        [{ ...body, key: '' }, 'No Key set for JSON Body Data extraction.'],
        [{ ...body, value_source: 'header', key: '' }, 'Value Source set but no Key set'],
        [{ ...body, variable: 'no spaces' }, /variable/],
      ]
      for (const [json, message] of bad) {
        expectError(await tp.p.request('POST', path, json), 400, message)
      }
      expect(await tp.p.list(path, IntegrationExtractValue)).toEqual([made])

      // An update merges what it sends into the stored value.
      expectNoContent(
        await tp.p.request('PUT', `${path}/${made.id}`, { id: made.id, variable: 'REF' }),
      )
      expect(await tp.p.get(`${path}/${made.id}`, IntegrationExtractValue)).toEqual({
        ...made,
        variable: 'REF',
      })
      expectError(
        await tp.p.request('PUT', `${path}/${made.id}`, { id: made.id + 1, variable: 'X' }),
        400,
        'Value ID in body and URL must be the same',
      )
      expectError(
        await tp.p.request('PUT', `${path}/${made.id}`, { id: made.id, key: '' }),
        400,
        'No Key set for JSON Body Data extraction.',
      )
      expect(await tp.p.get(`${path}/${made.id}/refs`, IntegrationPartRefs)).toEqual({
        integrations: [],
      })
      expectNoContent(await tp.p.request('DELETE', `${path}/${made.id}`))
      expect(await tp.p.list(path, IntegrationExtractValue)).toEqual([])
    })

    it('makes project-level and integration-level aliases', async () => {
      const integration = await newIntegration()
      const own = expectBody(
        await tp.p.request('POST', `${base()}/${integration.id}/aliases`),
        200,
        IntegrationAlias,
      )
      expect(own.url).toMatch(/^http:\/\/localhost:\d+\/api\/integrations\/[a-z0-9]{16}$/)
      const shared = expectBody(
        await tp.p.request('POST', `${base()}/aliases`),
        200,
        IntegrationAlias,
      )
      expect(shared.url).not.toBe(own.url)
      expect(await tp.p.list(`${base()}/${integration.id}/aliases`, IntegrationAlias)).toEqual([
        own,
      ])
      const project = await tp.p.list(`${base()}/aliases`, IntegrationAlias)
      expect(project).toContainEqual(shared)
      expect(project).not.toContainEqual(own)
      // An alias is deleted only through its own list.
      expectError(await tp.p.request('DELETE', `${base()}/aliases/${own.id}`), 404)
      expectNoContent(await tp.p.request('DELETE', `${base()}/${integration.id}/aliases/${own.id}`))
      expectNoContent(await tp.p.request('DELETE', `${base()}/aliases/${shared.id}`))
      expect(await tp.p.list(`${base()}/${integration.id}/aliases`, IntegrationAlias)).toEqual([])
    })

    it('deletes an integration with its matchers, values and aliases', async () => {
      const integration = await newIntegration()
      const made = await alias(integration.id)
      await tp.p.request('POST', `${base()}/${integration.id}/matchers`, {
        name: 'm',
        match_type: 'header',
        key: 'x-event',
        value: 'push',
      })
      expectNoContent(await tp.p.request('DELETE', `${base()}/${integration.id}`))
      expectError(await tp.p.request('GET', `${base()}/${integration.id}/matchers`), 404)
      // Its alias is gone: a delivery to it answers as for any unknown alias.
      const result = await deliver(made.name, '{}')
      expect([result.status, result.text]).toEqual([200, ''])
    })

    it('lists integrations among the references of their template and key', async () => {
      const tpl = await tp.template('ok.sh')
      const integration = await newIntegration({
        template_id: tpl,
        auth_method: 'token',
        auth_header: 'x-token',
        auth_secret_id: secretKeyId,
      })
      const refs = await tp.p.get(`/templates/${tpl}/refs`, Refs)
      expect(refs.integrations).toEqual([{ id: integration.id, name: integration.name }])
      expectInUse(await tp.p.request('DELETE', `/templates/${tpl}`))
      const keyRefs = await tp.p.get(`/keys/${secretKeyId}/refs`, Refs)
      expect(keyRefs.integrations).toContainEqual({ id: integration.id, name: integration.name })
      expectInUse(await tp.p.request('DELETE', `/keys/${secretKeyId}`))
      expectNoContent(await tp.p.request('DELETE', `${base()}/${integration.id}`))
      expectNoContent(await tp.p.request('DELETE', `/templates/${tpl}`))
    })
  })

  describe('backup and restore', () => {
    it('carry integrations with their aliases, matchers and extracted values', async () => {
      const project = await TaskProject.create(world, repo.path)
      const tpl = await project.template('hook.sh')
      const key = await project.p.loginPasswordKey(unique('secret'), SECRET)
      const integration = expectBody(
        await project.p.request('POST', '/integrations', {
          name: 'backed up',
          project_id: project.p.projectId,
          template_id: tpl,
          auth_method: 'hmac',
          auth_header: 'X-Signature',
          auth_secret_id: key.id,
          searchable: true,
          debounce: true,
          task_params: { message: 'restored' },
        }),
        201,
        Integration,
      )
      const matcher = {
        name: 'event',
        match_type: 'header',
        method: 'equals',
        key: 'X-Event',
        value: 'push',
      }
      const value = {
        name: 'ref',
        value_source: 'body',
        body_data_type: 'json',
        key: 'ref',
        variable: 'REF',
      }
      expectBody(
        await project.p.request('POST', `/integrations/${integration.id}/matchers`, matcher),
        200,
        IntegrationMatcher,
      )
      expectBody(
        await project.p.request('POST', `/integrations/${integration.id}/values`, value),
        201,
        IntegrationExtractValue,
      )
      expectBody(
        await project.p.request('POST', `/integrations/${integration.id}/aliases`),
        200,
        IntegrationAlias,
      )
      expectBody(await project.p.request('POST', '/integrations/aliases'), 200, IntegrationAlias)

      const backup = await project.p.request('GET', '/backup')
      expect(backup.status).toBe(200)
      const restored = await world.request('POST', '/api/projects/restore', {
        as: admin.as,
        json: backup.body,
      })
      const copy = expectBody(restored, 200, z.object({ id: z.number() }).catchall(z.unknown()))
      const list = expectBody(
        await world.request('GET', `/api/project/${copy.id}/integrations`, { as: admin.as }),
        200,
        z.array(Integration),
      )
      expect(list).toHaveLength(1)
      const [again] = list
      if (!again) throw new Error('no integration restored')
      expect(again).toMatchObject({
        name: 'backed up',
        auth_method: 'hmac',
        auth_header: 'X-Signature',
        searchable: true,
        debounce: true,
        task_params: { message: 'restored' },
      })
      expect(again.auth_secret_id).not.toBeNull()
      const read = (path: string) =>
        world.request('GET', `/api/project/${copy.id}/integrations${path}`, { as: admin.as })
      expect(
        expectBody(await read(`/${again.id}/matchers`), 200, z.array(IntegrationMatcher)),
      ).toEqual([expect.objectContaining(matcher)])
      expect(
        expectBody(await read(`/${again.id}/values`), 200, z.array(IntegrationExtractValue)),
      ).toEqual([expect.objectContaining(value)])
      expect(
        expectBody(await read(`/${again.id}/aliases`), 200, z.array(IntegrationAlias)),
      ).toHaveLength(1)
      expect(expectBody(await read('/aliases'), 200, z.array(IntegrationAlias))).toHaveLength(1)
    })
  })

  describe('the webhook receiver', () => {
    async function extractRef(integrationId: number): Promise<void> {
      expectBody(
        await tp.p.request('POST', `${base()}/${integrationId}/values`, {
          name: 'ref',
          value_source: 'body',
          body_data_type: 'json',
          key: 'ref',
          variable: 'GIT_REF',
        }),
        201,
        IntegrationExtractValue,
      )
    }

    /** Waits for the task and returns its output lines. */
    async function finishedLines(task: Task): Promise<string[]> {
      await tp.waitFor(task.id)
      return tp.lines(task.id)
    }

    it('answers an unknown alias with 200 and an empty body, starting nothing', async () => {
      const before = (await tp.p.list('/tasks', Task)).length
      for (const name of ['unknown-alias', 'a'.repeat(16), '..%2F..', '0']) {
        const result = await deliver(name, '{"ref":"x"}')
        expect([result.status, result.text], name).toEqual([200, ''])
      }
      expect((await tp.p.list('/tasks', Task)).length).toBe(before)
    })

    it('starts the template for a GitHub-signed delivery with the extracted value', async () => {
      const integration = await newIntegration({
        auth_method: 'github',
        auth_secret_id: secretKeyId,
        task_params: { message: 'pushed' },
      })
      await extractRef(integration.id)
      const made = await alias(integration.id)
      const body = JSON.stringify({ ref: 'refs/heads/main', commits: [] })

      const wrong = await deliver(made.name, body, {
        'X-Hub-Signature-256': `sha256=${sign(body, 'not the secret')}`,
      })
      expect(wrong.status).toBe(204)
      const missing = await deliver(made.name, body)
      expect(missing.status).toBe(204)
      expect(await tasksOf(integration.id)).toEqual([])

      const right = await deliver(made.name, body, {
        'X-Hub-Signature-256': `sha256=${sign(body)}`,
      })
      expect([right.status, right.text]).toEqual([204, ''])
      const [task] = await tasksOf(integration.id)
      if (!task) throw new Error('no task started')
      expect(task).toMatchObject({
        template_id: integration.template_id,
        integration_id: integration.id,
        user_id: null,
        message: 'pushed',
      })
      expect(JSON.parse(task.environment ?? '{}')).toEqual({ GIT_REF: 'refs/heads/main' })
      const lines = await finishedLines(task)
      expect(lines).toContainEqual(expect.stringMatching(/hook args:.*GIT_REF=refs\/heads\/main/))

      const log = await waitForDeliveries(integration.id, 3)
      expect(log.map((d) => d.result)).toEqual([
        'task_started',
        'authentication_failed',
        'authentication_failed',
      ])
      expect(log[0]?.task_id).toBe(task.id)
      expect(log[0]?.source).not.toBe('')
    })

    it('never lets what a sender delivers choose how Ansible runs or hold template markup', async () => {
      const keys = await tp.p.list('/keys', z.object({ id: z.number(), name: z.string() }).loose())
      const none = keys.find((k) => k.name === 'None')
      if (!none) throw new Error('no None key')
      const inventory = await tp.p.inventory(unique('local'), none.id, {
        inventory: 'localhost ansible_connection=local',
      })
      const ansible = await tp.template('site.yml', { app: 'ansible', inventory_id: inventory.id })
      const value = (integrationId: number, variable: string) =>
        tp.p.request('POST', `${base()}/${integrationId}/values`, {
          name: variable,
          value_source: 'body',
          body_data_type: 'json',
          key: 'v',
          variable,
        })
      const markup = await newIntegration({ template_id: ansible })
      expectBody(await value(markup.id, 'greeting'), 201, IntegrationExtractValue)
      const interpreter = await newIntegration()
      expectBody(
        await value(interpreter.id, 'ansible_python_interpreter'),
        201,
        IntegrationExtractValue,
      )
      const cases: Array<[Integration, string]> = [
        [markup, `{{ lookup('pipe', 'id') }}`],
        [markup, '{% for x in y %}'],
        [interpreter, 'touch /tmp/x; python3'],
      ]
      for (const [integration, v] of cases) {
        const made = await alias(integration.id)
        expect((await deliver(made.name, JSON.stringify({ v }))).status).toBe(204)
      }
      expect((await waitForDeliveries(markup.id, 2)).map((d) => d.result)).toEqual([
        'task_refused',
        'task_refused',
      ])
      expect((await waitForDeliveries(interpreter.id, 1)).map((d) => d.result)).toEqual([
        'task_refused',
      ])
      expect(await tasksOf(markup.id)).toEqual([])
      expect(await tasksOf(interpreter.id)).toEqual([])
      // Plain text still starts the Ansible template.
      const made = await alias(markup.id)
      expect((await deliver(made.name, JSON.stringify({ v: 'hello' }))).status).toBe(204)
      const [task] = await tasksOf(markup.id)
      expect(JSON.parse(task?.environment ?? '{}')).toEqual({ greeting: 'hello' })
    })

    /** An integration of the env.sh template with a body value per `{variable: json key}`. */
    async function envIntegration(values: Record<string, string>): Promise<Integration> {
      const integration = await newIntegration({ template_id: await tp.template('env.sh') })
      for (const [variable, key] of Object.entries(values)) {
        expectBody(
          await tp.p.request('POST', `${base()}/${integration.id}/values`, {
            name: variable,
            value_source: 'body',
            body_data_type: 'json',
            key,
            variable,
          }),
          201,
          IntegrationExtractValue,
        )
      }
      return integration
    }

    it("sets the extracted values in the task process's environment", async () => {
      const integration = await envIntegration({ REF: 'ref' })
      const made = await alias(integration.id)
      const body = JSON.stringify({ ref: 'refs/heads/release-1', other: 'x' })
      expect((await deliver(made.name, body)).status).toBe(204)
      const [task] = await tasksOf(integration.id)
      if (!task) throw new Error('no task started')
      // Still sent as the task's variables, too.
      expect(JSON.parse(task.environment ?? '{}')).toEqual({ REF: 'refs/heads/release-1' })
      expect(await finishedLines(task)).toContain('ref=refs/heads/release-1')
      expectStatus(await tp.task(task.id), 'success')
    })

    it('never lets a delivery set variables that change how the process runs', async () => {
      const integration = await envIntegration({
        REF: 'ref',
        LD_PRELOAD: 'preload',
        BASH_ENV: 'bashenv',
        PYTHONPATH: 'pythonpath',
        PATH: 'path',
      })
      const made = await alias(integration.id)
      const body = JSON.stringify({
        ref: 'main',
        preload: '/nonexistent/evil.so',
        bashenv: '/nonexistent/evil.rc',
        pythonpath: '/nonexistent/evil',
        path: '/nonexistent/bin',
      })
      expect((await deliver(made.name, body)).status).toBe(204)
      const [task] = await tasksOf(integration.id)
      if (!task) throw new Error('no task started')
      expect(JSON.parse(task.environment ?? '{}')).toMatchObject({
        REF: 'main',
        PATH: '/nonexistent/bin',
      })
      const lines = await finishedLines(task)
      expect(lines).toEqual(
        expect.arrayContaining(['ref=main', 'preload=unset', 'bashenv=unset', 'pythonpath=unset']),
      )
      const path = lines.find((line) => line.startsWith('path='))
      expect(path).toBeDefined()
      expect(path).not.toContain('/nonexistent')
      expect(lines.join('\n')).not.toMatch(/evil\.(so|rc)/)
      expectStatus(await tp.task(task.id), 'success')
    })

    it('checks hmac and token headers and lets deliveries in without a method', async () => {
      const hmac = await newIntegration({
        auth_method: 'hmac',
        auth_header: 'X-Signature',
        auth_secret_id: secretKeyId,
      })
      const token = await newIntegration({
        auth_method: 'token',
        auth_header: 'X-Token',
        auth_secret_id: secretKeyId,
      })
      const open = await newIntegration({ auth_method: '' })
      const noSecret = await newIntegration({ auth_method: 'token', auth_header: 'X-Token' })
      const body = '{"ref":"x"}'
      const h = await alias(hmac.id)
      const t = await alias(token.id)
      const o = await alias(open.id)
      const n = await alias(noSecret.id)

      expect((await deliver(h.name, body, { 'X-Signature': sign(body, 'wrong') })).status).toBe(204)
      expect((await deliver(t.name, body, { 'X-Token': `${SECRET}x` })).status).toBe(204)
      expect((await deliver(n.name, body, { 'X-Token': '' })).status).toBe(204)
      expect(await tasksOf(hmac.id)).toEqual([])
      expect(await tasksOf(token.id)).toEqual([])
      expect(await tasksOf(noSecret.id)).toEqual([])

      expect((await deliver(h.name, body, { 'X-Signature': sign(body) })).status).toBe(204)
      expect((await deliver(t.name, body, { 'X-Token': SECRET })).status).toBe(204)
      expect((await deliver(o.name, body)).status).toBe(204)
      for (const integration of [hmac, token, open]) {
        expect(await tasksOf(integration.id), integration.auth_method).toHaveLength(1)
      }
      expect((await waitForDeliveries(noSecret.id, 1)).map((d) => d.result)).toEqual([
        'authentication_failed',
      ])
      // GET reaches the receiver too (no body).
      const get = await world.request('GET', `/api/integrations/${o.name}`)
      expect(get.status).toBe(204)
      expect(await tasksOf(open.id)).toHaveLength(2)
    })

    it('uses matchers on project-level aliases and only searchable integrations', async () => {
      const searchable = await newIntegration({ searchable: true })
      const matchers = `${base()}/${searchable.id}/matchers`
      expectBody(
        await tp.p.request('POST', matchers, {
          name: 'event',
          match_type: 'header',
          method: 'equals',
          key: 'X-Event',
          value: 'push',
        }),
        200,
        IntegrationMatcher,
      )
      expectBody(
        await tp.p.request('POST', matchers, {
          name: 'branch',
          match_type: 'body',
          method: 'contains',
          body_data_type: 'json',
          key: 'repository.branch',
          value: 'main',
        }),
        200,
        IntegrationMatcher,
      )
      expectBody(
        await tp.p.request('POST', matchers, {
          name: 'not deleted',
          match_type: 'body',
          method: 'unequals',
          body_data_type: 'json',
          key: 'deleted',
          value: 'true',
        }),
        200,
        IntegrationMatcher,
      )
      await extractRef(searchable.id)
      // Searchable but without matchers: never reached through a project-level alias.
      const bare = await newIntegration({ searchable: true })
      // Not searchable: only its own aliases reach it.
      const hidden = await newIntegration({ searchable: false })
      const shared = await alias(null)
      const ownOfSearchable = await alias(searchable.id)

      const good = JSON.stringify({
        ref: 'r1',
        repository: { branch: 'main-line' },
        deleted: false,
      })
      const cases: Array<[string, Record<string, string>]> = [
        [good, { 'X-Event': 'tag' }],
        [JSON.stringify({ ref: 'r1', repository: { branch: 'dev' } }), { 'X-Event': 'push' }],
        [
          JSON.stringify({ ref: 'r1', repository: { branch: 'main' }, deleted: true }),
          { 'X-Event': 'push' },
        ],
        ['this is not JSON', { 'X-Event': 'push' }],
      ]
      for (const [body, headers] of cases) {
        expect((await deliver(shared.name, body, headers)).status).toBe(204)
      }
      expect(await tasksOf(searchable.id)).toEqual([])

      expect((await deliver(shared.name, good, { 'X-Event': 'push' })).status).toBe(204)
      const [task] = await tasksOf(searchable.id)
      if (!task) throw new Error('no task started')
      expect(JSON.parse(task.environment ?? '{}')).toEqual({ GIT_REF: 'r1' })
      expect(await tasksOf(bare.id)).toEqual([])
      expect(await tasksOf(hidden.id)).toEqual([])
      expect((await waitForDeliveries(searchable.id, 5)).map((d) => d.result)).toEqual([
        'task_started',
        'no_matcher_matched',
        'no_matcher_matched',
        'no_matcher_matched',
        'no_matcher_matched',
      ])
      // A searchable integration's own alias does not reach it.
      expect((await deliver(ownOfSearchable.name, good, { 'X-Event': 'push' })).status).toBe(204)
      expect(await tasksOf(searchable.id)).toHaveLength(1)
      await tp.waitFor(task.id)
    })

    it('refuses bodies over 1 MB with 413 and starts nothing', async () => {
      const integration = await newIntegration()
      await extractRef(integration.id)
      const made = await alias(integration.id)
      const path = `/api/integrations/${made.name}`
      for (const bytes of [1024 * 1024 + 1, 10 * 1024 * 1024]) {
        expect(await announceBody(server.url, path, bytes), `${bytes} bytes`).toBe(413)
      }
      expect(await tasksOf(integration.id)).toEqual([])
      expect(await deliveries(integration.id)).toEqual([])
      // Just under the limit is delivered.
      const body = JSON.stringify({ ref: 'big', pad: 'x'.repeat(1024 * 1024 - 40) })
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(1024 * 1024)
      expect((await deliver(made.name, body)).status).toBe(204)
      const [task] = await tasksOf(integration.id)
      if (!task) throw new Error('no task started')
      expect(JSON.parse(task.environment ?? '{}')).toEqual({ GIT_REF: 'big' })
      await tp.waitFor(task.id)
    })

    it('answers a burst beyond the rate limit with 429 and starts nothing for those', async () => {
      // Authentication fails for all, so the burst starts no task at all.
      const integration = await newIntegration({
        auth_method: 'token',
        auth_header: 'X-Token',
        auth_secret_id: secretKeyId,
      })
      const made = await alias(integration.id)
      const results = await Promise.all(
        Array.from({ length: 200 }, () => deliver(made.name, '{}', { 'X-Token': 'wrong' })),
      )
      const statuses = results.map((r) => r.status)
      expect(statuses.every((s) => s === 204 || s === 429)).toBe(true)
      const limited = results.filter((r) => r.status === 429)
      expect(limited.length).toBeGreaterThan(0)
      expect(limited[0]?.headers.get('retry-after')).toMatch(/^\d+$/)
      expect(await tasksOf(integration.id)).toEqual([])
      // Unknown aliases are limited alike, so a limit reveals nothing.
      const unknown = await Promise.all(
        Array.from({ length: 200 }, () => deliver('no-such-alias-here', '{}')),
      )
      expect(unknown.some((r) => r.status === 429)).toBe(true)
      expect(unknown.every((r) => r.status === 200 || r.status === 429)).toBe(true)
    })

    it('skips deliveries while a task the integration started is still waiting (debounce)', async () => {
      const project = await TaskProject.create(world, repo.path)
      const renamed = await world.request('PUT', `/api/project/${project.p.projectId}`, {
        as: admin.as,
        json: { name: unique('busy'), max_parallel_tasks: 1 },
      })
      expectNoContent(renamed)
      const sleeper = await project.run(await project.template('sleep.sh'))
      await project.waitFor(sleeper.id, ['running'])
      const hookTemplate = await project.template('hook.sh')
      const integration = expectBody(
        await project.p.request('POST', '/integrations', {
          name: unique('debounced'),
          project_id: project.p.projectId,
          template_id: hookTemplate,
          debounce: true,
        }),
        201,
        Integration,
      )
      const made = expectBody(
        await project.p.request('POST', `/integrations/${integration.id}/aliases`),
        200,
        IntegrationAlias,
      )
      const name = made.url.split('/').pop() ?? ''
      for (let i = 0; i < 3; i += 1) expect((await deliver(name, '{}')).status).toBe(204)
      const all = await project.p.list('/tasks', Task)
      const started = all.filter((t) => t.integration_id === integration.id)
      expect(started).toHaveLength(1)
      const log = await project.p.list(
        `/integrations/${integration.id}/deliveries`,
        IntegrationDelivery,
      )
      expect(log.map((d) => d.result)).toEqual([
        'skipped_duplicate',
        'skipped_duplicate',
        'task_started',
      ])
      expectNoContent(await project.p.request('POST', `/tasks/${sleeper.id}/stop`, { force: true }))
      const [task] = started
      if (task) await project.waitFor(task.id)
    })

    it('keeps the last 100 deliveries of an integration', async () => {
      const integration = await newIntegration({ auth_method: 'token', auth_header: 'X-Token' })
      // Aliases are rate-limited one by one: 105 deliveries over five aliases stay below it.
      const names: string[] = []
      for (let i = 0; i < 5; i += 1) names.push((await alias(integration.id)).name)
      for (let i = 0; i < 105; i += 1) {
        expect((await deliver(names[i % names.length] ?? '', '{}')).status).toBe(204)
      }
      const log = await deliveries(integration.id)
      expect(log).toHaveLength(100)
      const ids = log.map((d) => d.id)
      expect([...ids].sort((a, b) => b - a)).toEqual(ids)
      expect(new Set(log.map((d) => d.result))).toEqual(new Set(['authentication_failed']))
    })
  })
})

/**
 * Announces a body of `bytes` bytes and returns the status of the answer. The server refuses
 * a body over its limit from its announced length, before reading it; the body is not sent,
 * as a server closing a connection with unread data in it resets the connection.
 */
function announceBody(baseUrl: string, path: string, bytes: number): Promise<number> {
  const url = new URL(baseUrl)
  return new Promise((resolve, reject) => {
    let answer = ''
    const socket = connect(Number(url.port), url.hostname)
    socket.on('data', (data: Buffer) => {
      answer += data.toString('latin1')
      const match = /^HTTP\/1\.1 (\d{3})/.exec(answer)
      if (match) {
        socket.destroy()
        resolve(Number(match[1]))
      }
    })
    socket.on('error', reject)
    socket.on('close', () => reject(new Error('the connection closed without an answer')))
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${bytes}\r\nConnection: close\r\n\r\n`,
    )
  })
}

/** A deletion refused because something still uses the object. */
function expectInUse(result: HttpResult): void {
  expect(result.status).toBe(400)
  expect(result.body).toMatchObject({ error: expect.stringMatching(/in use/), inUse: true })
}
