import { taskRoutes } from '@flagman/contract'
import { expect, expectAccessible, signIn, test } from '../support/fixtures.js'
import { gitRepository } from '../support/git-repository.js'
import { taskProject } from '../support/task-project.js'

/** More than one page the console asks for (100), so the history and activity page back. */
const TASKS = 105

test.describe('long history and activity', () => {
  let repo: { path: string; dispose(): void }
  test.beforeAll(() => {
    repo = gitRepository({ 'quick.sh': 'echo done\n' })
  })
  test.afterAll(() => repo.dispose())

  test('page back through the server, a page at a time', async ({ page, adminApi }) => {
    test.setTimeout(240_000)
    const fixture = await taskProject(adminApi, repo.path, 'History')
    const { project } = fixture
    const template = await fixture.template('quick.sh')
    const params = { project_id: project.id }
    const ids: number[] = []
    for (let i = 0; i < TASKS; i += 1) ids.push(await fixture.run(template))
    // Live updates are not what this is about: let every task finish first.
    await expect
      .poll(
        async () =>
          (await adminApi.call(taskRoutes.last, { params, query: { limit: '200' } }))?.filter((t) =>
            ['success', 'error'].includes(t.status),
          ).length,
        { timeout: 180_000 },
      )
      .toBe(TASKS)

    await signIn(page)
    await page.goto(`/project/${project.id}/history`)
    await expect(page.getByText('1–20 of more than 20')).toBeVisible()
    await expect(page.getByRole('link', { name: `#${ids[TASKS - 1]}` })).toBeVisible()
    const next = page.getByRole('button', { name: /next page/i })
    for (let i = 0; i < 5; i += 1) await next.click()
    await expect(page.getByText(`101–${TASKS} of ${TASKS}`)).toBeVisible()
    await expect(page.getByRole('link', { name: `#${ids[0]}` })).toBeVisible()
    await expect(next).toBeDisabled()
    await expectAccessible(page)

    await page.goto(`/project/${project.id}/activity`)
    const table = page.getByRole('table', { name: 'Activity' })
    await expect(table.getByRole('row')).toHaveCount(101)
    const more = page.getByRole('button', { name: 'Show more' })
    await more.click()
    await expect(table.getByRole('row')).toHaveCount(201)
    await expectAccessible(page)
    // Every task is queued and finished: more than two pages of events, then none left.
    while (await more.isVisible()) await more.click()
    await expect(table.getByText(`Task ID ${ids[0]} queued for running`)).toBeVisible()
  })
})
