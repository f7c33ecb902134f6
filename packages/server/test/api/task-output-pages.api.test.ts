import { TaskOutput, TaskOutputCount } from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { dialects } from '../support/databases.js'
import { World } from '../support/fixtures.js'
import { expectBody, expectError } from '../support/http.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { activateScriptApps, gitRepository, TaskProject } from '../support/tasks.js'

const PAGE_LINES = 25_000
const BIG_LINES = 200_000
const SCRIPTS = {
  'pages.sh': `seq -f 'line %.0f' 1 ${PAGE_LINES}\n`,
  'big.sh': `seq -f 'big %.0f' 1 ${BIG_LINES}\n`,
}
const Page = z.array(TaskOutput)

describe.each(dialects())('paged task output on %s', (dialect) => {
  let server: TestServer
  let repo: ReturnType<typeof gitRepository>
  let tp: TaskProject
  let taskId: number
  /** Every line of the task as the unpaged route answers it. */
  let whole: TaskOutput[]

  const page = async (query: string) =>
    expectBody(await tp.p.request('GET', `/tasks/${taskId}/output?${query}`), 200, Page)

  beforeAll(async () => {
    repo = gitRepository(SCRIPTS)
    server = await startTestServer(dialect)
    const world = new World(server)
    await activateScriptApps(world)
    tp = await TaskProject.create(world, repo.path)
    const task = await tp.run(await tp.template('pages.sh'))
    taskId = task.id
    expect((await tp.waitFor(taskId, undefined, 60_000)).status).toBe('success')
    whole = await tp.output(taskId)
  }, 120_000)

  afterAll(async () => {
    await server?.stop()
    repo?.dispose()
  })

  it('answers the whole log without parameters, exactly as before', async () => {
    const result = await tp.p.request('GET', `/tasks/${taskId}/output`)
    expect(result.status).toBe(200)
    const body = result.body as Array<Record<string, unknown>>
    expect(body.length).toBe(whole.length)
    for (const item of [body[0], body[body.length - 1]]) {
      expect(Object.keys(item!).sort()).toEqual(['output', 'task_id', 'time'])
    }
    expect(whole.filter((o) => o.output.startsWith('line ')).map((o) => o.output)).toEqual(
      Array.from({ length: PAGE_LINES }, (_, i) => `line ${i + 1}`),
    )
  })

  it('counts the lines', async () => {
    const count = expectBody(
      await tp.p.request('GET', `/tasks/${taskId}/output/count`),
      200,
      TaskOutputCount,
    )
    expect(count.count).toBe(whole.length)
  })

  it('answers the first, a middle and the last page with line numbers', async () => {
    const numbered = whole.map((o, i) => ({ ...o, line: i + 1 }))
    expect(await page('offset=1&limit=100')).toEqual(numbered.slice(0, 100))
    expect(await page('limit=10')).toEqual(numbered.slice(0, 10))
    expect(await page('offset=12345&limit=10000')).toEqual(numbered.slice(12344, 22344))
    const last = whole.length - 49
    expect(await page(`offset=${last}&limit=100`)).toEqual(numbered.slice(last - 1))
    // Only an offset: a page of the default size.
    expect((await page('offset=2')).length).toBe(1000)
  })

  it('answers an empty page beyond the end', async () => {
    expect(await page(`offset=${whole.length + 1}&limit=10`)).toEqual([])
    expect(await page('offset=2147483647&limit=10000')).toEqual([])
  })

  it('refuses bad paging parameters with a clear message', async () => {
    const cases: Array<[string, RegExp]> = [
      ['offset=0', /offset must be a whole number from 1/],
      ['offset=-5', /offset must be a whole number/],
      ['offset=1.5', /offset must be a whole number/],
      ['offset=abc', /offset must be a whole number/],
      ['offset=2147483648', /offset must be a whole number from 1 to 2147483647/],
      ['offset=99999999999999999999', /offset must be a whole number/],
      ['offset=1%20OR%201%3D1', /offset must be a whole number/],
      ["offset=1';DROP%20TABLE%20task_output;--", /offset must be a whole number/],
      ['limit=0', /limit must be a whole number from 1 to 10000/],
      ['limit=10001', /limit must be a whole number from 1 to 10000/],
      ['limit=', /limit must be a whole number/],
      ['offset=1&offset=2', /offset/],
    ]
    for (const [query, message] of cases) {
      expectError(await tp.p.request('GET', `/tasks/${taskId}/output?${query}`), 400, message)
    }
    expectError(await tp.p.request('GET', '/tasks/999999/output?offset=1'), 404)
    expectError(await tp.p.request('GET', '/tasks/999999/output/count'), 404)
    // Nothing was harmed by the injection-shaped values.
    expect((await tp.output(taskId)).length).toBe(whole.length)
  })

  it(`stores all ${BIG_LINES.toLocaleString('en')} lines of a chatty task, numbered without gaps`, async () => {
    const task = await tp.run(await tp.template('big.sh'))
    expect((await tp.waitFor(task.id, undefined, 120_000)).status).toBe('success')
    const { count } = expectBody(
      await tp.p.request('GET', `/tasks/${task.id}/output/count`),
      200,
      TaskOutputCount,
    )
    let expectedBig = 1
    let line = 1
    while (line <= count) {
      const result = await tp.p.request(
        'GET',
        `/tasks/${task.id}/output?offset=${line}&limit=10000`,
      )
      for (const o of expectBody(result, 200, Page)) {
        expect(o.line).toBe(line)
        line += 1
        if (!o.output.startsWith('big ')) continue
        if (o.output !== `big ${expectedBig}`) expect(o.output).toBe(`big ${expectedBig}`)
        expectedBig += 1
      }
    }
    expect(line - 1).toBe(count)
    expect(expectedBig - 1).toBe(BIG_LINES)
  }, 180_000)
})
