import { ProjectLogSearchResult, TaskLogSearchResult } from '@flagman/contract'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { World } from '../support/fixtures.js'
import { expectBody, expectError, expectNoContent } from '../support/http.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { activateScriptApps, gitRepository, TaskProject } from '../support/tasks.js'

const FILLER_LINES = 3000
const SPECIAL_LINES = [
  'quote "double" here',
  'star * and NEAR(a b) and -minus',
  'percent 100% done',
  'back\\slash path C:\\temp',
  "it's a single quote",
  'under_score_name',
  'MiXeD Case Needle',
]
const SCRIPTS = {
  'special.sh': `cat <<'LOG'\n${SPECIAL_LINES.join('\n')}\nLOG\nseq -f 'filler %.0f' 1 ${FILLER_LINES}\necho 'tail needle at end'\n`,
  'other.sh': `echo 'other needle'\n`,
}

describe.each(dialects())('log search on %s', (dialect) => {
  let server: TestServer
  let repo: ReturnType<typeof gitRepository>
  let world: World
  let tp: TaskProject
  let taskId: number
  let otherTaskId: number
  let templateId: number
  let otherTemplateId: number

  const searchTask = async (query: string, id = taskId) =>
    expectBody(
      await tp.p.request('GET', `/tasks/${id}/output/search?${query}`),
      200,
      TaskLogSearchResult,
    )
  const searchProject = async (query: string) =>
    expectBody(await tp.p.request('GET', `/output/search?${query}`), 200, ProjectLogSearchResult)
  const q = (text: string) => `q=${encodeURIComponent(text)}`

  beforeAll(async () => {
    repo = gitRepository(SCRIPTS)
    server = await startTestServer(dialect)
    world = new World(server)
    await activateScriptApps(world)
    tp = await TaskProject.create(world, repo.path)
    templateId = await tp.template('special.sh')
    otherTemplateId = await tp.template('other.sh')
    taskId = (await tp.run(templateId)).id
    expect((await tp.waitFor(taskId, undefined, 60_000)).status).toBe('success')
    // One after the other, so that "newest first" is one order.
    otherTaskId = (await tp.run(otherTemplateId)).id
    expect((await tp.waitFor(otherTaskId, undefined, 60_000)).status).toBe('success')
  }, 120_000)

  afterAll(async () => {
    await server?.stop()
    repo?.dispose()
  })

  it('finds lines holding search-syntax characters literally', async () => {
    const cases: [string, string][] = [
      ['"double"', 'quote "double" here'],
      ['*', 'star * and NEAR(a b) and -minus'],
      ['NEAR(a b)', 'star * and NEAR(a b) and -minus'],
      ['-minus', 'star * and NEAR(a b) and -minus'],
      ['100%', 'percent 100% done'],
      ['%', 'percent 100% done'],
      ['back\\slash', 'back\\slash path C:\\temp'],
      ["it's", "it's a single quote"],
      ['_', 'under_score_name'],
      ["' OR 1=1 --", ''],
    ]
    for (const [text, line] of cases) {
      const found = await searchTask(q(text))
      expect(
        found.matches.map((m) => m.output),
        text,
      ).toEqual(line ? [line] : [])
      expect(found).toMatchObject({ task_id: taskId, truncated: false, timed_out: false })
    }
  })

  it('ignores case and numbers the lines', async () => {
    const found = await searchTask(q('mixed case'))
    expect(found.matches.map((m) => m.output)).toEqual(['MiXeD Case Needle'])
    const tail = await searchTask(q('tail needle'))
    const all = await tp.output(taskId)
    const position = all.findIndex((line) => line.output === 'tail needle at end') + 1
    expect(tail.matches.map((m) => m.line)).toEqual([position])
  })

  it('answers at most limit matches, in log order, and says it cut', async () => {
    const found = await searchTask(`${q('filler')}&limit=5`)
    expect(found.matches.map((m) => m.output)).toEqual([
      'filler 1',
      'filler 2',
      'filler 3',
      'filler 4',
      'filler 5',
    ])
    expect(found.truncated).toBe(true)
    const lines = found.matches.map((m) => m.line)
    expect([...lines].sort((a, b) => a - b)).toEqual(lines)
    const everything = await searchTask(`${q('filler 29')}&limit=500`)
    // filler 29, 290…299 and 2900…2999.
    expect(everything.matches).toHaveLength(111)
    expect(everything.truncated).toBe(false)
  })

  it('refuses bad queries with a clear message', async () => {
    const path = `/tasks/${taskId}/output/search`
    expectError(await tp.p.request('GET', path), 400, /q/)
    expectError(await tp.p.request('GET', `${path}?q=`), 400, /q must not be empty/)
    expectError(await tp.p.request('GET', `${path}?q=%20%20`), 400, /q must not be empty/)
    expectError(await tp.p.request('GET', `${path}?${q('x'.repeat(201))}`), 400, /200/)
    for (const limit of ['0', '501', 'abc', '-1', '1.5']) {
      expectError(await tp.p.request('GET', `${path}?q=a&limit=${limit}`), 400, /limit/)
    }
    const project = '/output/search'
    expectError(await tp.p.request('GET', `${project}?q=a&template_id=x`), 400, /template_id/)
    expectError(await tp.p.request('GET', `${project}?q=a&from=yesterday`), 400, /from/)
    expectError(
      await tp.p.request('GET', `${project}?q=a&from=2030-01-02&to=2030-01-01`),
      400,
      /from must be earlier than to/,
    )
    expectError(await tp.p.request('GET', `${project}?q=a&limit=201`), 400, /limit/)
  })

  it('searches across the project, newest first, by template and time', async () => {
    const all = await searchProject(q('needle'))
    expect(all.matches.map((m) => [m.task_id, m.output])).toEqual([
      [otherTaskId, 'other needle'],
      [taskId, 'tail needle at end'],
      [taskId, 'MiXeD Case Needle'],
    ])
    expect(all.matches[0]).toMatchObject({
      template_id: otherTemplateId,
      task_status: 'success',
    })
    expect(typeof all.matches[0]!.template_name).toBe('string')
    const one = await searchProject(`${q('needle')}&template_id=${templateId}`)
    expect(new Set(one.matches.map((m) => m.task_id))).toEqual(new Set([taskId]))
    const future = await searchProject(`${q('needle')}&from=2999-01-01`)
    expect(future.matches).toEqual([])
    const past = await searchProject(`${q('needle')}&to=2000-01-01T00:00:00Z`)
    expect(past.matches).toEqual([])
    const cut = await searchProject(`${q('filler')}&limit=3`)
    expect(cut.matches).toHaveLength(3)
    expect(cut.truncated).toBe(true)
    const literal = await searchProject(q('100%'))
    expect(literal.matches.map((m) => m.output)).toEqual(['percent 100% done'])
  })

  it('answers the same once the log is indexed', async () => {
    // SQLite indexes finished logs in the background; the answer must not change.
    await new Promise((resolve) => setTimeout(resolve, 2_500))
    expect((await searchTask(q('"double"'))).matches.map((m) => m.output)).toEqual([
      'quote "double" here',
    ])
    expect((await searchTask(q('%'))).matches).toHaveLength(1)
    expect((await searchProject(q('needle'))).matches).toHaveLength(3)
  })

  it('keeps other projects out', async () => {
    const stranger = await world.newUser({ name: 'stranger' })
    const path = `/api/project/${tp.p.projectId}/tasks/${taskId}/output/search?q=needle`
    expect((await world.request('GET', path, { as: stranger.as })).status).toBe(404)
    const own = await world.newProject(stranger)
    const foreign = `/api/project/${own.id}/tasks/${taskId}/output/search?q=needle`
    expectError(await world.request('GET', foreign, { as: stranger.as }), 404, /Task/)
    const theirs = await world.request('GET', `/api/project/${own.id}/output/search?q=needle`, {
      as: stranger.as,
    })
    expect(expectBody(theirs, 200, ProjectLogSearchResult).matches).toEqual([])
  })

  // MariaDB/MySQL copy the lines of tasks that ended a while ago into a table of their own
  // with the FULLTEXT index; lines stored after the copy are scanned.
  it.runIf(dialect === 'mysql')(
    'copies ended tasks into the search table and still finds lines stored later',
    async () => {
      const db = await world.openDb()
      try {
        const ids = [taskId, otherTaskId]
        await sql`update task set \`end\` = '2000-01-01T00:00:00.000Z'
          where id in (${sql.join(ids)})`.execute(db.kysely)
        const copied = async () =>
          (
            await sql<{ n: number }>`select count(*) as n from task
              where id in (${sql.join(ids)}) and log_indexed_through > 0`.execute(db.kysely)
          ).rows[0]?.n
        const deadline = Date.now() + 30_000
        while (Number(await copied()) < ids.length) {
          if (Date.now() > deadline) throw new Error('the ended tasks were never copied')
          await new Promise((resolve) => setTimeout(resolve, 200))
        }
        const count = async (table: string, id: number) =>
          Number(
            (
              await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}
                where task_id = ${id}`.execute(db.kysely)
            ).rows[0]?.n,
          )
        expect(await count('task_output_search', taskId)).toBe(await count('task_output', taskId))
        expect((await searchProject(q('needle'))).matches.map((m) => m.output)).toEqual([
          'other needle',
          'tail needle at end',
          'MiXeD Case Needle',
        ])

        // A line the server writes after the copy is found by the scan of what follows it.
        await sql`insert into task_output (task_id, time, output, line)
          values (${taskId}, '2000-01-01T00:00:01.000Z', 'late needle line', null)`.execute(
          db.kysely,
        )
        const late = await searchProject(q('needle'))
        expect(late.matches.map((m) => m.output)[0]).toBe('late needle line')
        expect(late.matches).toHaveLength(4)

        // Deleting a task takes its copied lines along.
        expectNoContent(await tp.p.request('DELETE', `/tasks/${otherTaskId}`))
        expect(await count('task_output_search', otherTaskId)).toBe(0)
      } finally {
        await db.destroy()
      }
    },
    60_000,
  )
})
