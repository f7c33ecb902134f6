import { taskRoutes } from '@flagman/contract'
import { expect, signIn, test } from '../support/fixtures.js'
import { gitRepository } from '../support/git-repository.js'
import { taskProject } from '../support/task-project.js'

const SCRIPTS = {
  'long.sh':
    'seq 1 15000 | sed "s/^/step /"\necho \'found "quoted" 100% here\'\nseq 15001 30000 | sed "s/^/step /"\n',
}

test.describe('log search', () => {
  let repo: { path: string; dispose(): void }
  test.beforeAll(() => {
    repo = gitRepository(SCRIPTS)
  })
  test.afterAll(() => repo.dispose())

  test('finds a line of a long log on the server and shows it', async ({ page, adminApi }) => {
    const fixture = await taskProject(adminApi, repo.path, 'Search')
    const { project } = fixture
    const params = { project_id: project.id }
    const taskId = await fixture.run(await fixture.template('long.sh'))
    await expect
      .poll(
        async () =>
          (await adminApi.call(taskRoutes.get, { params: { ...params, task_id: taskId } })).status,
        { timeout: 60_000 },
      )
      .toBe('success')

    await signIn(page)
    await page.goto(`/project/${project.id}/history?t=${taskId}`)
    const dialog = page.getByRole('dialog')
    await expect(dialog.getByText('step 30000', { exact: true })).toBeVisible({ timeout: 30_000 })

    const search = dialog.getByRole('searchbox', { name: 'Search the whole log' })
    await search.fill('"QUOTED" 100%')
    await search.press('Enter')
    const results = dialog.getByRole('list', { name: 'Matching lines' })
    const match = results.getByRole('button')
    await expect(match).toHaveCount(1)
    await expect(match.locator('mark')).toHaveText('"quoted" 100%')
    await expect(dialog.getByText('Lines found: 1', { exact: true })).toBeVisible()

    // The line sits in the middle of the log: choosing the match brings it into view.
    const line = dialog.getByRole('log').getByText('found "quoted" 100% here', { exact: true })
    await expect(line).toHaveCount(0)
    await match.focus()
    await page.keyboard.press('Enter')
    await expect(line).toBeVisible()

    await search.fill('no such text anywhere')
    await search.press('Enter')
    await expect(dialog.getByText('Lines found: 0', { exact: true })).toBeVisible()
  })
})
