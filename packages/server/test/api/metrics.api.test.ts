import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { World, type Person } from '../support/fixtures.js'
import { expectError, type Credentials, type HttpResult } from '../support/http.js'
import { parsePrometheusText, sampleValue, type Family } from '../support/prometheus-text.js'
import { REPO_ROOT, startTestServer, type TestServer } from '../support/server.js'
import { activateScriptApps, gitFixture, TaskProject } from '../support/tasks.js'

const METRICS_TOKEN = 'scraper-token-Of-Some-Length-42'
const TASKS_ROUTE = '/api/project/:project_id/tasks'

describe.each(dialects())('metrics on %s', (dialect) => {
  let server: TestServer
  let world: World
  let repo: ReturnType<typeof gitFixture>
  let tp: TaskProject
  let admin: Person
  let adminToken: string

  beforeAll(async () => {
    repo = gitFixture()
    server = await startTestServer(dialect, { FLAGMAN_METRICS_TOKEN: METRICS_TOKEN })
    world = new World(server)
    await activateScriptApps(world)
    tp = await TaskProject.create(world, repo.path)
    admin = await world.admin()
    adminToken = await world.token(admin)
  }, 60_000)

  afterAll(async () => {
    await server?.stop()
    repo?.dispose()
  })

  function scrape(as: Credentials): Promise<HttpResult> {
    return world.request('GET', '/api/metrics', { as })
  }

  /** Scrapes until `ready` holds: counters move just after what the API shows is stored. */
  async function scrapeUntil(
    as: Credentials,
    ready: (families: Map<string, Family>) => boolean,
  ): Promise<Map<string, Family>> {
    const deadline = Date.now() + 10_000
    for (;;) {
      const result = await scrape(as)
      expect(result.status).toBe(200)
      expect(result.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
      const families = parsePrometheusText(result.text)
      if (ready(families) || Date.now() > deadline) return families
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }

  it('measures tasks, output, requests, runners and instances', async () => {
    const template = await tp.template('ok.sh')
    const tasks = [await tp.run(template), await tp.run(template)]
    let printed = 0
    for (const task of tasks) {
      expect((await tp.waitFor(task.id)).status).toBe('success')
      printed += (await tp.lines(task.id)).length
    }
    expect(printed).toBeGreaterThanOrEqual(4)

    const families = await scrapeUntil(
      { token: adminToken },
      (f) => (sampleValue(f, 'flagman_log_lines_stored_total') ?? 0) >= printed,
    )
    expect(families.get('flagman_tasks')?.type).toBe('gauge')
    expect(
      sampleValue(families, 'flagman_tasks', { status: 'success', app: 'bash' }),
    ).toBeGreaterThanOrEqual(tasks.length)

    expect(families.get('flagman_task_start_seconds')?.type).toBe('histogram')
    expect(sampleValue(families, 'flagman_task_start_seconds_count')).toBeGreaterThanOrEqual(
      tasks.length,
    )
    expect(sampleValue(families, 'flagman_task_queue_wait_seconds_count')).toBeGreaterThanOrEqual(
      tasks.length,
    )
    // The +Inf bucket holds every observation.
    expect(sampleValue(families, 'flagman_task_start_seconds_bucket', { le: '+Inf' })).toBe(
      sampleValue(families, 'flagman_task_start_seconds_count'),
    )

    expect(families.get('flagman_log_lines_stored_total')?.type).toBe('counter')
    expect(sampleValue(families, 'flagman_log_lines_stored_total')).toBeGreaterThanOrEqual(printed)
    expect(sampleValue(families, 'flagman_log_store_lag_seconds_count')).toBeGreaterThan(0)

    const http = families.get('flagman_http_request_duration_seconds')
    expect(http?.type).toBe('histogram')
    const taskRequests = http?.samples.filter(
      (s) => s.name.endsWith('_count') && s.labels.route === TASKS_ROUTE,
    )
    expect(taskRequests?.length).toBeGreaterThan(0)
    expect(taskRequests?.some((s) => s.labels.method === 'POST' && s.labels.status === '201')).toBe(
      true,
    )
    // Routes appear by their pattern, never by the address.
    expect(http?.samples.some((s) => /\/project\/\d/.test(s.labels.route ?? ''))).toBe(false)

    expect(sampleValue(families, 'flagman_runners', { state: 'online' })).toBe(0)
    expect(sampleValue(families, 'flagman_runners', { state: 'offline' })).toBe(0)
    expect(sampleValue(families, 'flagman_server_instances')).toBeGreaterThanOrEqual(1)
    expect(sampleValue(families, 'flagman_websocket_clients')).toBe(0)
    expect(families.get('flagman_websocket_dropped_clients_total')?.type).toBe('counter')
    expect(families.get('flagman_schedule_runs_total')?.type).toBe('counter')
    expect(families.get('flagman_alert_deliveries_total')?.type).toBe('counter')
    expect(sampleValue(families, 'flagman_process_cpu_user_seconds_total')).toBeGreaterThan(0)
    expect(families.get('flagman_retention_removed_total')?.type).toBe('counter')
    const pool = (state: string) =>
      sampleValue(families, 'flagman_db_pool_connections', { state }) ?? -1
    expect(pool('open')).toBeGreaterThanOrEqual(1)
    expect(pool('max')).toBeGreaterThanOrEqual(pool('open'))
    expect(pool('idle')).toBeLessThanOrEqual(pool('open'))
    expect(pool('waiting')).toBeGreaterThanOrEqual(0)

    // Every metric the documentation lists is served, and every one served is documented.
    const documented = new Set(
      [
        ...readFileSync(join(REPO_ROOT, 'docs', 'metrics.md'), 'utf8').matchAll(
          /^\| `(flagman_\w+)/gm,
        ),
      ].map((match) => match[1]!),
    )
    const served = [...families.keys()].filter(
      (name) => !name.startsWith('flagman_process_') && !name.startsWith('flagman_nodejs_'),
    )
    expect(served.filter((name) => !documented.has(name))).toEqual([])
    // `flagman_process_*` and `flagman_nodejs_*` are named together, by their prefix.
    const named = [...documented].filter((name) => !name.endsWith('_'))
    expect(named.filter((name) => !families.has(name))).toEqual([])
  })

  it('answers the metrics token, an administrator and nobody else', async () => {
    const byToken = await scrapeUntil({ token: METRICS_TOKEN }, () => true)
    expect(sampleValue(byToken, 'flagman_tasks', { status: 'success', app: 'bash' })).toBeDefined()
    await scrapeUntil(admin.as, () => true)

    expectError(await scrape({}), 401)
    expectError(await scrape({ token: `${METRICS_TOKEN}x` }), 401)
    expectError(await scrape({ token: METRICS_TOKEN.toLowerCase() }), 401)
    expectError(await scrape({ token: 'not-a-token' }), 401)
    const user = await world.newUser()
    expectError(await scrape({ token: await world.token(user) }), 403)
    expectError(await scrape(user.as), 403)
  })
})
