import { taskRoutes } from '@flagman/contract'
import { type Page } from '@playwright/test'
import { expect, expectAccessible, signIn, test } from '../support/fixtures.js'
import { gitRepository } from '../support/git-repository.js'
import { taskProject } from '../support/task-project.js'

const SCRIPTS: Record<string, string> = {
  'ticks.sh': 'for i in 1 2 3; do echo "tick $i"; sleep 1; done\n',
  'trap.sh': "trap '' TERM\necho started\nwhile true; do sleep 0.1; done\n",
  'sleep.sh': 'echo started\nsleep 60\n',
  'greet.sh': 'echo "greeting $*"\n',
  'flood.sh': 'seq 1 100000 | sed "s/^/line /"\n',
  'wave.sh': 'echo "hello $*"\nsleep 3\necho "goodbye"\n',
}

function logDialog(page: Page) {
  return page.getByRole('dialog')
}

test.describe('tasks', () => {
  let repo: { path: string; dispose(): void }
  test.beforeAll(() => {
    repo = gitRepository(SCRIPTS)
  })
  test.afterAll(() => repo.dispose())

  test('history updates live and the log opens from ?t=', async ({ page, adminApi }) => {
    const fixture = await taskProject(adminApi, repo.path)
    const ticks = await fixture.template('ticks.sh')
    await signIn(page)
    await page.goto(`/project/${fixture.project.id}/history`)
    await expect(page.getByText('No tasks yet')).toBeVisible()

    const taskId = await fixture.run(ticks)
    const row = page.locator(`tr[data-task-id="${taskId}"]`)
    await expect(row).toBeVisible()
    await row.getByRole('link', { name: `#${taskId}` }).click()
    await expect(page).toHaveURL(new RegExp(`\\?t=${taskId}$`))
    const dialog = logDialog(page)
    await expect(dialog.getByText('ticks', { exact: true })).toBeVisible()
    await expect(dialog.getByText('tick 3', { exact: true })).toBeVisible({ timeout: 20_000 })
    await expect(dialog.getByText('Success', { exact: true })).toBeVisible({ timeout: 20_000 })
    await expect(row.getByText('Success')).toBeVisible()
    await expectAccessible(page, '[role="dialog"]')

    await dialog.getByRole('button', { name: 'Close' }).click()
    await expect(dialog).toBeHidden()
    await expect(page).toHaveURL(new RegExp(`/project/${fixture.project.id}/history$`))
    await expectAccessible(page)
  })

  test("runs from the template list's play button and the list follows it live", async ({
    page,
    adminApi,
  }) => {
    const fixture = await taskProject(adminApi, repo.path)
    const wave = await fixture.template('wave.sh', {
      survey_vars: [{ name: 'who', title: 'Who', required: true }],
    })
    await signIn(page)
    await page.goto(`/project/${fixture.project.id}/templates`)
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'wave' }) })
    await row.getByRole('button', { name: 'Show the last tasks of wave' }).click()
    await expect(page.getByText('No tasks yet.')).toBeVisible()

    await row.getByRole('button', { name: 'Run wave' }).click()
    const form = page.getByRole('dialog', { name: 'New Task: wave' })
    await form.getByRole('button', { name: 'Run' }).click()
    await expect(form.getByText('Who is required')).toBeVisible()
    await expect(page).not.toHaveURL(/\?t=/)
    await form.getByRole('textbox', { name: 'Who' }).fill('world')
    await form.getByRole('button', { name: 'Run' }).click()

    await expect(page).toHaveURL(/\?t=\d+$/)
    const taskId = Number(new URL(page.url()).searchParams.get('t'))
    const dialog = logDialog(page)
    await expect(dialog.getByText('wave', { exact: true })).toBeVisible()
    await expect(dialog.getByText(`#${taskId}`, { exact: true })).toBeVisible()
    // The first line arrives while the task still runs: the log is live, not read at the end.
    await expect(dialog.getByText('hello who=world', { exact: true })).toBeVisible({
      timeout: 20_000,
    })
    await expect(dialog.getByText('goodbye', { exact: true })).toHaveCount(0)
    await expect(dialog.getByText('Running', { exact: true })).toBeVisible()
    await expect(dialog.getByText('goodbye', { exact: true })).toBeVisible({ timeout: 20_000 })
    await expect(dialog.getByText('Success', { exact: true })).toBeVisible({ timeout: 20_000 })
    await dialog.getByRole('button', { name: 'Close' }).click()
    await expect(page).not.toHaveURL(/\?t=/)

    // The row's last task and its expanded last tasks followed the task without a reload.
    await expect(row.getByText(`#${taskId}`)).toBeVisible()
    await expect(row.getByText('Success', { exact: true })).toBeVisible()
    await expect(page.getByRole('cell', { name: `#${taskId}`, exact: true })).toBeVisible()

    const next = (
      await adminApi.call(taskRoutes.create, {
        params: { project_id: fixture.project.id },
        body: { template_id: wave, environment: JSON.stringify({ who: 'again' }) },
      })
    ).id
    await expect(row.getByText(`#${next}`)).toBeVisible({ timeout: 20_000 })
    await expect(page.getByRole('cell', { name: `#${next}`, exact: true })).toBeVisible()
    await expect(row.getByText('Success', { exact: true })).toBeVisible({ timeout: 20_000 })
  })

  test('stops a long task and force-stops it', async ({ page, adminApi }) => {
    const fixture = await taskProject(adminApi, repo.path)
    const trap = await fixture.template('trap.sh')
    const taskId = await fixture.run(trap)
    await signIn(page)
    await page.goto(`/project/${fixture.project.id}/history?t=${taskId}`)
    const dialog = logDialog(page)
    await expect(dialog.getByText('started', { exact: true })).toBeVisible({ timeout: 20_000 })
    await expect(dialog.getByText('Running', { exact: true })).toBeVisible()
    await dialog.getByRole('button', { name: 'Stop', exact: true }).click()
    await expect(dialog.getByText('Stopping...')).toBeVisible()
    await dialog.getByRole('button', { name: 'Force Stop' }).click()
    await expect(dialog.getByText('Stopped', { exact: true })).toBeVisible({ timeout: 20_000 })
    await expect(dialog.getByRole('button', { name: /Stop/ })).toHaveCount(0)
  })

  test('admins see running tasks on /tasks', async ({ page, adminApi }) => {
    const fixture = await taskProject(adminApi, repo.path)
    const sleep = await fixture.template('sleep.sh')
    const taskId = await fixture.run(sleep)
    await signIn(page)
    await page.goto('/tasks')
    const row = page.locator(`tr[data-task-id="${taskId}"]`)
    await expect(row).toBeVisible()
    await expect(row.getByRole('link', { name: fixture.project.name })).toBeVisible()
    await row.getByRole('button', { name: `Stop task #${taskId}` }).click()
    await expect(row).toBeHidden({ timeout: 20_000 })
  })

  test('runs a template from its page with a required survey variable', async ({
    page,
    adminApi,
  }) => {
    const fixture = await taskProject(adminApi, repo.path)
    const greet = await fixture.template('greet.sh', {
      survey_vars: [{ name: 'who', title: 'Who', required: true }],
    })
    await signIn(page)
    await page.goto(`/project/${fixture.project.id}/templates/${greet}/tasks`)
    await expect(page.getByText('No tasks yet')).toBeVisible()
    await page.getByRole('button', { name: 'Run' }).click()
    const form = page.getByRole('dialog', { name: 'New Task: greet' })
    await form.getByRole('button', { name: 'Run' }).click()
    await expect(form.getByText('Who is required')).toBeVisible()
    await form.getByRole('textbox', { name: 'Who' }).fill('world')
    await form.getByRole('textbox', { name: 'Message (optional)' }).fill('first run')
    await expectAccessible(page, '[role="dialog"]')
    await form.getByRole('button', { name: 'Run' }).click()

    await expect(page).toHaveURL(/\?t=\d+$/)
    const dialog = logDialog(page)
    await expect(dialog.getByText('greeting who=world', { exact: true })).toBeVisible({
      timeout: 20_000,
    })
    await expect(dialog.getByText('Success', { exact: true })).toBeVisible({ timeout: 20_000 })
    await dialog.getByRole('button', { name: 'Close' }).click()
    await expect(page).not.toHaveURL(/\?t=/)
    await expect(page.locator('tr[data-task-id]')).toHaveCount(1)
    await expect(page.locator('tr[data-task-id]').getByText('Success')).toBeVisible()
  })

  test('a 100,000-line log stays responsive', async ({ page, adminApi }) => {
    const fixture = await taskProject(adminApi, repo.path)
    const flood = await fixture.template('flood.sh')
    const taskId = await fixture.run(flood)
    await expect
      .poll(
        async () =>
          (
            await adminApi.call(taskRoutes.get, {
              params: { project_id: fixture.project.id, task_id: taskId },
            })
          ).status,
        { timeout: 60_000 },
      )
      .toBe('success')
    await signIn(page)
    await page.goto(`/project/${fixture.project.id}/history?t=${taskId}`)
    const dialog = logDialog(page)
    await expect(dialog.getByText('line 100000', { exact: true })).toBeVisible({ timeout: 30_000 })
    // Only the visible window of lines is in the document.
    expect(await dialog.getByText(/^line \d+$/).count()).toBeLessThan(500)
    // The log is read page by page: scrolled to its start, the first lines are fetched.
    await dialog.getByRole('log').evaluate((log) => {
      log.scrollTop = 0
    })
    await expect(dialog.getByText('line 1', { exact: true })).toBeVisible()
    await expect(dialog.getByText('line 100000', { exact: true })).toHaveCount(0)
  })

  test('deploys a chosen build version and shows the stats chart', async ({ page, adminApi }) => {
    const fixture = await taskProject(adminApi, repo.path)
    const build = await fixture.template('greet.sh', {
      name: 'build app',
      type: 'build',
      start_version: '1.0.0',
    })
    const deploy = await fixture.template('greet.sh', {
      name: 'deploy app',
      type: 'deploy',
      build_template_id: build,
    })
    const params = { project_id: fixture.project.id }
    const finished = async (taskId: number) =>
      expect
        .poll(
          async () =>
            (await adminApi.call(taskRoutes.get, { params: { ...params, task_id: taskId } }))
              .status,
          { timeout: 30_000 },
        )
        .toBe('success')
    const first = await fixture.run(build)
    await finished(first)
    const second = await fixture.run(build)
    await finished(second)
    const firstVersion = (
      await adminApi.call(taskRoutes.get, { params: { ...params, task_id: first } })
    ).version
    const secondVersion = (
      await adminApi.call(taskRoutes.get, { params: { ...params, task_id: second } })
    ).version
    expect(firstVersion).not.toBe(secondVersion)

    await signIn(page)
    await page.goto(`/project/${fixture.project.id}/templates/${deploy}/tasks`)
    await page.getByRole('button', { name: 'Deploy' }).click()
    const form = page.getByRole('dialog', { name: 'New Deploy: deploy app' })
    const version = form.getByRole('combobox', { name: 'Build version' })
    await expect(version).toContainText(secondVersion ?? '')
    await version.click()
    await page.getByRole('option', { name: new RegExp(`^${firstVersion}`) }).click()
    await form.getByRole('button', { name: 'Deploy' }).click()

    await expect(page).toHaveURL(/\?t=\d+$/)
    const taskId = Number(new URL(page.url()).searchParams.get('t'))
    await expect(logDialog(page).getByText('Success', { exact: true })).toBeVisible({
      timeout: 20_000,
    })
    const deployed = await adminApi.call(taskRoutes.get, { params: { ...params, task_id: taskId } })
    expect(deployed.build_task_id).toBe(first)
    await logDialog(page).getByRole('button', { name: 'Close' }).click()

    await page.getByRole('tab', { name: 'Details' }).click()
    await expect(page.getByText('Task statistics')).toBeVisible()
    await expect(page.getByRole('img', { name: 'Success: 1, failed: 0, stopped: 0' })).toBeVisible()
    await page.getByRole('combobox', { name: 'Period' }).click()
    await page.getByRole('option', { name: 'Past year' }).click()
    await expect(page.getByRole('img', { name: /^Success: 1/ })).toBeVisible()
    await expectAccessible(page)
  })
})
