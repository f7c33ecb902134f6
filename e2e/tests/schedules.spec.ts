import { type ApiClient, type Project, scheduleRoutes } from '@flagman/contract'
import { type Locator, type Page } from '@playwright/test'
import {
  addMember,
  dialog,
  expect,
  expectAccessible,
  newUser,
  saveScreenshot,
  signIn,
  snackbar,
  test,
} from '../support/fixtures.js'
import { gitRepository } from '../support/git-repository.js'
import { taskProject } from '../support/task-project.js'

const TABLE = 'Schedule'

interface Fixture {
  project: Project
  templateId: number
  repositoryId: number
}

/** A project with a bash template that prints a line, from a local git repository. */
async function scheduleProject(api: ApiClient, repoPath: string): Promise<Fixture> {
  const tasks = await taskProject(api, repoPath, 'Schedules')
  return {
    project: tasks.project,
    templateId: await tasks.template('hello.sh'),
    repositoryId: tasks.repositoryId,
  }
}

function createScheduleByApi(api: ApiClient, fixture: Fixture, name: string, cron: string) {
  return api.call(scheduleRoutes.create, {
    params: { project_id: fixture.project.id },
    body: {
      name,
      template_id: fixture.templateId,
      cron_format: cron,
      active: true,
      project_id: fixture.project.id,
    },
  })
}

function row(page: Page, name: string): Locator {
  return page
    .getByRole('table', { name: TABLE })
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name, exact: true }) })
}

/** Picks an option of a select (MUI renders it as a combobox with a listbox). */
async function choose(form: Locator, page: Page, label: RegExp, option: string) {
  await form.getByRole('combobox', { name: label }).click()
  await page.getByRole('option', { name: option, exact: true }).click()
}

interface ModeCase {
  mode: string
  name: string
  pick: [RegExp, string][]
  cron: string
  text: string
}

const MODES: ModeCase[] = [
  {
    mode: 'Yearly',
    name: 'yearly',
    pick: [
      [/^Month/, 'June'],
      [/^Day/, '15'],
      [/^Hour/, '03'],
      [/^Minute/, '30'],
    ],
    cron: '30 3 15 6 *',
    text: 'Every year on June 15 at 03:30',
  },
  {
    mode: 'Monthly',
    name: 'monthly',
    pick: [
      [/^Day/, '1'],
      [/^Hour/, '04'],
      [/^Minute/, '05'],
    ],
    cron: '5 4 1 * *',
    text: 'Every month on day 1 at 04:05',
  },
  {
    mode: 'Weekly',
    name: 'weekly',
    pick: [
      [/^Weekday/, 'Friday'],
      [/^Hour/, '09'],
      [/^Minute/, '00'],
    ],
    cron: '0 9 * * 5',
    text: 'Every Friday at 09:00',
  },
  {
    mode: 'Daily',
    name: 'daily',
    pick: [
      [/^Hour/, '22'],
      [/^Minute/, '45'],
    ],
    cron: '45 22 * * *',
    text: 'Every day at 22:45',
  },
  {
    mode: 'Hourly',
    name: 'hourly',
    pick: [[/^Minute/, '10']],
    cron: '10 * * * *',
    text: 'Every hour at minute 10',
  },
]

test.describe('schedules', () => {
  let repo: { path: string; dispose(): void }
  test.beforeAll(() => {
    repo = gitRepository({ 'hello.sh': 'echo "hello from the schedule"\n' })
  })
  test.afterAll(() => repo.dispose())

  test('a schedule is created in every timing mode and its expression round-trips', async ({
    page,
    adminApi,
  }) => {
    // Six schedules are made and reopened one by one.
    test.setTimeout(120_000)
    const fixture = await scheduleProject(adminApi, repo.path)
    await signIn(page)
    await page.goto(`/project/${fixture.project.id}/schedule`)
    await expect(page.getByRole('heading', { level: 1, name: 'Schedule' })).toBeVisible()
    await expect(page.getByText('No schedules yet')).toBeVisible()
    await expectAccessible(page)

    // The empty state offers the first schedule; a new one starts as raw every-minute cron.
    await page.getByRole('button', { name: 'New schedule' }).last().click()
    const form = dialog(page, 'New schedule')
    await expect(form.getByRole('combobox', { name: /^Timing/ })).toHaveText(
      'Custom (cron expression)',
    )
    await expect(form.getByRole('textbox', { name: 'Cron expression' })).toHaveValue('* * * * *')
    const preview = form.getByRole('table', { name: 'Next 5 runs' })
    await expect(preview.getByRole('row')).toHaveCount(6)
    await expect(preview).toContainText('Your time')
    await expectAccessible(page, '[role="dialog"]')
    await form.getByRole('button', { name: 'Cancel' }).click()
    await expect(form).toBeHidden()

    for (const item of MODES) {
      await page.getByRole('button', { name: 'New schedule' }).first().click()
      await form.getByRole('textbox', { name: 'Name', exact: true }).fill(item.name)
      await choose(form, page, /^Template/, 'hello')
      await choose(form, page, /^Timing/, item.mode)
      for (const [label, option] of item.pick) await choose(form, page, label, option)
      await expect(form.getByTestId('schedule-expression')).toHaveText(item.cron)
      await expect(form.getByText(item.text)).toBeVisible()
      await form.getByRole('button', { name: 'Create' }).click()
      await expect(snackbar(page, `Schedule ${item.name} created`)).toBeVisible()
      await expect(form).toBeHidden()
      const created = row(page, item.name)
      await expect(created).toContainText(item.cron)
      await expect(created).toContainText(item.text)
      await expect(created.getByRole('link', { name: 'hello' })).toHaveAttribute(
        'href',
        `/project/${fixture.project.id}/templates/${fixture.templateId}`,
      )
      // Opening it again derives the mode from the stored expression.
      await created.getByRole('button', { name: `Edit ${item.name}` }).click()
      const edit = dialog(page, 'Edit schedule')
      await expect(edit.getByRole('combobox', { name: /^Timing/ })).toHaveText(item.mode)
      await expect(edit.getByTestId('schedule-expression')).toHaveText(item.cron)
      await edit.getByRole('button', { name: 'Cancel' }).click()
      await expect(edit).toBeHidden()
    }

    // Raw: the server judges the expression while it is typed and again on saving.
    await page.getByRole('button', { name: 'New schedule' }).first().click()
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('raw')
    await choose(form, page, /^Template/, 'hello')
    const cron = form.getByRole('textbox', { name: 'Cron expression' })
    await cron.fill('every day')
    // The server's message is under the field (the preview may say it too).
    await expect(cron).toHaveAccessibleDescription(/^Cron: /)
    await form.getByRole('button', { name: 'Create' }).click()
    await expect(cron).toHaveAccessibleDescription(/^Cron: /)
    await expect(form.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('raw')
    await cron.fill('*/15 2-4 * * 1-5')
    await expect(cron).not.toHaveAccessibleDescription(/^Cron: /)
    await expect(form.getByText(/^Cron: /)).toBeHidden()
    await form.getByRole('button', { name: 'Create' }).click()
    await expect(snackbar(page, 'Schedule raw created')).toBeVisible()
    await expect(row(page, 'raw')).toContainText('*/15 2-4 * * 1-5')
    await row(page, 'raw').getByRole('button', { name: 'Edit raw' }).click()
    const edit = dialog(page, 'Edit schedule')
    await expect(edit.getByRole('combobox', { name: /^Timing/ })).toHaveText(
      'Custom (cron expression)',
    )
    await expect(edit.getByRole('textbox', { name: 'Cron expression' })).toHaveValue(
      '*/15 2-4 * * 1-5',
    )
    await expectAccessible(page, '[role="dialog"]')
    await saveScreenshot(page, 'schedule-dialog')
    await edit.getByRole('button', { name: 'Cancel' }).click()

    const stored = await adminApi.call(scheduleRoutes.list, {
      params: { project_id: fixture.project.id },
    })
    expect(Object.fromEntries(stored.map((s) => [s.name, s.cron_format]))).toEqual({
      ...Object.fromEntries(MODES.map((item) => [item.name, item.cron])),
      raw: '*/15 2-4 * * 1-5',
    })
    await expect(row(page, 'daily')).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'schedules')
  })

  test('a schedule is switched off, edited and deleted', async ({ page, adminApi }) => {
    const fixture = await scheduleProject(adminApi, repo.path)
    const schedule = await createScheduleByApi(adminApi, fixture, 'nightly', '0 3 * * *')
    const params = { project_id: fixture.project.id, schedule_id: schedule.id }
    await signIn(page)
    await page.goto(`/project/${fixture.project.id}/schedule`)
    const nightly = row(page, 'nightly')
    await expect(nightly).toContainText('Every day at 03:00')

    const active = nightly.getByRole('switch', { name: 'Active: nightly' })
    await expect(active).toBeChecked()
    await active.click()
    await expect(active).not.toBeChecked()
    await expect(nightly).toContainText('Paused')
    await expect
      .poll(async () => (await adminApi.call(scheduleRoutes.get, { params })).active)
      .toBe(false)
    await active.click()
    await expect(active).toBeChecked()
    await expect
      .poll(async () => (await adminApi.call(scheduleRoutes.get, { params })).active)
      .toBe(true)

    await nightly.getByRole('button', { name: 'Edit nightly' }).click()
    const form = dialog(page, 'Edit schedule')
    await expect(form.getByRole('combobox', { name: /^Timing/ })).toHaveText('Daily')
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('early')
    await choose(form, page, /^Hour/, '05')
    await form.getByRole('combobox', { name: 'Time zone' }).fill('Europe/Ber')
    await page.getByRole('option', { name: 'Europe/Berlin', exact: true }).click()
    await expect(form.getByRole('table', { name: 'Next 5 runs' })).toContainText(
      'Schedule time (Europe/Berlin)',
    )
    await form.getByRole('button', { name: 'Save' }).click()
    await expect(snackbar(page, 'Schedule early saved')).toBeVisible()
    const early = row(page, 'early')
    await expect(early).toContainText('0 5 * * *')
    await expect(early).toContainText('Europe/Berlin')
    const saved = await adminApi.call(scheduleRoutes.get, { params })
    expect(saved).toMatchObject({
      name: 'early',
      cron_format: '0 5 * * *',
      timezone: 'Europe/Berlin',
    })

    await early.getByRole('button', { name: 'Delete early' }).click()
    const confirm = dialog(page, 'Delete schedule?')
    await expect(confirm).toContainText('Are you sure you want to delete the schedule early?')
    await expectAccessible(page, '[role="dialog"]')
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await expect(early).toBeVisible()
    await early.getByRole('button', { name: 'Delete early' }).click()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await expect(snackbar(page, 'Schedule early deleted')).toBeVisible()
    await expect(page.getByText('No schedules yet')).toBeVisible()
  })

  test('task runners and guests see schedules read-only', async ({ page, adminApi }) => {
    const fixture = await scheduleProject(adminApi, repo.path)
    await createScheduleByApi(adminApi, fixture, 'weekly report', '0 9 * * 1')
    // A commit check made by the template form is listed too, marked as such.
    await adminApi.call(scheduleRoutes.create, {
      params: { project_id: fixture.project.id },
      body: {
        name: 'hello',
        template_id: fixture.templateId,
        cron_format: '*/5 * * * *',
        repository_id: fixture.repositoryId,
        active: true,
        project_id: fixture.project.id,
      },
    })
    for (const role of ['task_runner', 'guest'] as const) {
      const member = await newUser(adminApi)
      await addMember(adminApi, fixture.project, member, role)
      await signIn(page, member.username, member.password)
      await page.goto(`/project/${fixture.project.id}/schedule`)
      const report = row(page, 'weekly report')
      await expect(report).toContainText('Every Monday at 09:00')
      await expect(report.getByRole('switch', { name: 'Active: weekly report' })).toBeDisabled()
      await expect(report.getByRole('button', { name: 'Edit weekly report' })).toHaveCount(0)
      await expect(report.getByRole('button', { name: 'Delete weekly report' })).toHaveCount(0)
      await expect(page.getByRole('button', { name: 'New schedule' })).toHaveCount(0)
      const commitCheck = page
        .getByRole('table', { name: TABLE })
        .getByRole('row')
        .filter({ hasText: 'Commit check' })
      await expect(commitCheck).toContainText('Every 5 minutes')
      await expect(commitCheck.getByRole('switch', { name: 'Active: hello' })).toBeDisabled()
      await expectAccessible(page)
      await page.context().clearCookies()
    }
  })

  test('a schedule due every minute starts a task', async ({ page, adminApi }) => {
    test.setTimeout(150_000)
    const fixture = await scheduleProject(adminApi, repo.path)
    await signIn(page)
    await page.goto(`/project/${fixture.project.id}/schedule`)
    await page.getByRole('button', { name: 'New schedule' }).first().click()
    const form = dialog(page, 'New schedule')
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('every minute')
    await choose(form, page, /^Template/, 'hello')
    await expect(form.getByRole('textbox', { name: 'Cron expression' })).toHaveValue('* * * * *')
    await form.getByRole('button', { name: 'Create' }).click()
    await expect(snackbar(page, 'Schedule every minute created')).toBeVisible()
    const minute = row(page, 'every minute')
    await expect(minute).toContainText('Every minute')
    await expect(minute).toContainText('Never')

    const task = minute.getByRole('link', { name: /^Open task #\d+$/ })
    await expect(task).toBeVisible({ timeout: 75_000 })
    await task.click()
    await expect(page).toHaveURL(/\?t=\d+$/)
    await expect(page.getByRole('dialog').getByText('hello from the schedule')).toBeVisible({
      timeout: 30_000,
    })
  })
})
