import { getProject, listProjects } from '@flagman/contract'
import {
  apiAs,
  dialog,
  expect,
  expectAccessible,
  newMemberWithProjects,
  newProject,
  projectPicker,
  saveScreenshot,
  signIn,
  snackbar,
  test,
  uniqueId,
} from '../support/fixtures.js'

test.describe('projects', () => {
  test('an admin creates a project through the new-project dialog', async ({ page, adminApi }) => {
    const existing = await newProject(adminApi, `Existing ${uniqueId()}`)
    const name = `Delta Ops ${uniqueId()}`
    await signIn(page)
    await page.goto(`/project/${existing.id}/history`)
    await expect(page.getByRole('heading', { level: 1, name: existing.name })).toBeVisible()

    await projectPicker(page).click()
    await page.getByRole('menuitem', { name: 'New project' }).click()
    const form = dialog(page, 'New project')
    await expect(form).toBeVisible()
    await expect(page).toHaveURL(/[?&]new_project=/)
    await expect(form.getByRole('textbox', { name: 'Project name' })).toBeFocused()

    await form.getByRole('button', { name: 'Create' }).click()
    await expect(form.getByText('Project name is required')).toBeVisible()

    await form.getByRole('textbox', { name: 'Project name' }).fill(name)
    await form.getByRole('button', { name: 'Create' }).click()
    await expect(snackbar(page, `Project ${name} created`)).toBeVisible()
    await expect(form).toBeHidden()
    await expect(page).toHaveURL(/\/project\/\d+\/history$/)
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
    await expect(projectPicker(page)).toHaveAccessibleName(
      `Current project: ${name}. Choose another project`,
    )
    await expect(projectPicker(page).locator('[data-color]')).toHaveText('DO')

    const id = Number(/\/project\/(\d+)\//.exec(page.url())?.[1])
    const created = await adminApi.call(getProject, { params: { project_id: id } })
    expect(created).toMatchObject({ name, max_parallel_tasks: 0, alert: false })
  })

  test('closing the new-project dialog removes it from the address', async ({ page, adminApi }) => {
    const project = await newProject(adminApi, `Cancel ${uniqueId()}`)
    await signIn(page)
    await page.goto(`/project/${project.id}/history?new_project=`)
    const form = dialog(page, 'New project')
    await expect(form).toBeVisible()
    await form.getByRole('button', { name: 'Cancel' }).click()
    await expect(form).toBeHidden()
    await expect(page).toHaveURL(new RegExp(`/project/${project.id}/history$`))
  })

  test('the project picker switches projects and shows coloured initials', async ({
    page,
    adminApi,
  }) => {
    const id = uniqueId()
    const { user, projects } = await newMemberWithProjects(adminApi, [
      `Bravo Red ${id}`,
      `Charlie blue ${id}`,
      `Golf-${id}`,
    ])
    const [bravo, charlie, golf] = projects as [
      (typeof projects)[0],
      (typeof projects)[0],
      (typeof projects)[0],
    ]
    await signIn(page, user.username, user.password)

    // Without a stored choice the first project of the list opens.
    await expect(page).toHaveURL(new RegExp(`/project/${bravo.id}/history$`))
    const picker = projectPicker(page)
    await expect(picker).toContainText(bravo.name)
    await expect(picker).toContainText('Owner')
    await expect(picker.locator('[data-color]')).toHaveText('BR')
    await expect(picker.locator('[data-color]')).toHaveAttribute('data-color', 'red')

    await picker.click()
    const menu = page.getByRole('menu')
    await expect(menu).toMatchAriaSnapshot(`
      - menu:
        - menuitem "${bravo.name}"
        - menuitem "${charlie.name}"
        - menuitem "${golf.name}"
    `)
    // Only users who may create projects get the new-project entry.
    await expect(menu.getByRole('menuitem', { name: 'New project' })).toHaveCount(0)
    await expect(menu.locator('[data-color]')).toHaveText(['BR', 'CB', 'GO'])
    await expect(menu.locator('[data-color]').nth(2)).toHaveAttribute('data-color', 'orange')

    await menu.getByRole('menuitem', { name: charlie.name }).click()
    await expect(page).toHaveURL(new RegExp(`/project/${charlie.id}/history$`))
    await expect(page.getByRole('heading', { level: 1, name: charlie.name })).toBeVisible()
    await expect(picker.locator('[data-color]')).toHaveText('CB')
    await expect(picker.locator('[data-color]')).toHaveAttribute('data-color', 'blue')

    // The choice is remembered: the start page opens it again.
    await page.goto('/project')
    await expect(page).toHaveURL(new RegExp(`/project/${charlie.id}/history$`))
  })

  test('task runners and guests are told what their role allows', async ({ page, adminApi }) => {
    const id = uniqueId()
    const runner = await newMemberWithProjects(adminApi, [`Runner Role ${id}`], {
      role: 'task_runner',
    })
    await signIn(page, runner.user.username, runner.user.password)
    await expect(page).toHaveURL(new RegExp(`/project/${runner.projects[0]!.id}/history$`))
    await expect(projectPicker(page)).toContainText('Task runner')
    await expect(
      page.getByRole('status').filter({ hasText: 'You can run any tasks' }),
    ).toBeVisible()
    await expect(page.getByText('You have readonly access')).toHaveCount(0)
    // Without the updateProject permission there is no Settings tab.
    await expect(page.getByRole('tab', { name: 'Settings' })).toHaveCount(0)

    await page.context().clearCookies()
    const guest = await newMemberWithProjects(adminApi, [`Guest Role ${id}`], { role: 'guest' })
    await signIn(page, guest.user.username, guest.user.password)
    await expect(page).toHaveURL(new RegExp(`/project/${guest.projects[0]!.id}/history$`))
    await expect(projectPicker(page)).toContainText('Guest')
    await expect(
      page.getByRole('status').filter({ hasText: 'You have readonly access' }),
    ).toBeVisible()
    await expect(page.getByText('You can run any tasks')).toHaveCount(0)
    await expectAccessible(page)
    await saveScreenshot(page, 'project-history-guest')

    // Owners get no such notice.
    await page.context().clearCookies()
    const owner = await newMemberWithProjects(adminApi, [`Owner Role ${id}`])
    await signIn(page, owner.user.username, owner.user.password)
    await expect(page.getByRole('heading', { level: 1, name: `Owner Role ${id}` })).toBeVisible()
    await expect(page.getByText('You can run any tasks')).toHaveCount(0)
    await expect(page.getByText('You have readonly access')).toHaveCount(0)
  })

  test('settings refuse an invalid limit, then save', async ({
    page,
    adminApi,
    request,
    baseURL,
  }) => {
    const id = uniqueId()
    const { user, projects } = await newMemberWithProjects(adminApi, [`Echo ${id}`])
    const project = projects[0]!
    const renamed = `Echo Renamed ${id}`
    await signIn(page, user.username, user.password)
    await page.goto(`/project/${project.id}/settings`)

    const general = page.getByRole('region', { name: 'General' })
    await expect(general).toBeVisible()
    const limit = general.getByRole('textbox', { name: 'Max number of parallel tasks' })
    await expect(general.getByText('Should be 0 or greater, 0 - unlimited')).toBeVisible()

    await limit.fill('-1')
    await limit.blur()
    await expect(general.getByText('Must be 0 or greater')).toBeVisible()
    await expect(general.getByText('Should be 0 or greater, 0 - unlimited')).toBeHidden()
    await expect(limit).toHaveAttribute('aria-invalid', 'true')
    await general.getByRole('button', { name: 'Save' }).click()
    await expect(general.getByText('Must be 0 or greater')).toBeVisible()

    await limit.fill('2.5')
    await expect(general.getByText('Must be an integer')).toBeVisible()

    const name = general.getByRole('textbox', { name: 'Project name' })
    await name.fill('')
    await name.blur()
    await expect(general.getByText('Project name is required')).toBeVisible()

    // Nothing invalid reached the server.
    const api = await apiAs(request, baseURL!, user.username, user.password)
    expect(await api.call(getProject, { params: { project_id: project.id } })).toMatchObject({
      name: project.name,
      max_parallel_tasks: 0,
    })

    await name.fill(renamed)
    await limit.fill('3')
    await general.getByRole('switch', { name: 'Allow alerts for this project' }).check()
    await general.getByRole('textbox', { name: 'Chat ID (optional)' }).fill('-100123')
    await general.getByRole('button', { name: 'Save' }).click()
    await expect(snackbar(page, `Project ${renamed} saved`)).toBeVisible()
    await expect(page.getByRole('heading', { level: 1, name: renamed })).toBeVisible()

    expect(await api.call(getProject, { params: { project_id: project.id } })).toMatchObject({
      name: renamed,
      max_parallel_tasks: 3,
      alert: true,
      alert_chat: '-100123',
    })

    // The saved values are shown after a reload.
    await page.reload()
    await expect(limit).toHaveValue('3')
    await expect(name).toHaveValue(renamed)
  })

  test('task history settings refuse what the server would, then keep the history they set', async ({
    page,
    adminApi,
    request,
    baseURL,
  }) => {
    const id = uniqueId()
    const { user, projects } = await newMemberWithProjects(adminApi, [`Retained ${id}`])
    const project = projects[0]!
    await signIn(page, user.username, user.password)
    await page.goto(`/project/${project.id}/settings`)

    const history = page.getByRole('region', { name: 'Task history' })
    await expect(history).toBeVisible()
    const days = history.getByRole('textbox', { name: 'Keep task history (days)' })
    const perTemplate = history.getByRole('textbox', { name: 'Runs kept per template' })
    // The test server keeps history and events for ever unless a project says otherwise.
    await expect(
      history.getByText("Empty: the server's default (kept for ever). 0: keep for ever."),
    ).toBeVisible()
    await expect(history.getByText('The server keeps the activity log for ever.')).toBeVisible()

    await days.fill('-5')
    await perTemplate.fill('0')
    await history.getByRole('button', { name: 'Save' }).click()
    await expect(history.getByText('Must be 0 or greater')).toBeVisible()
    await expect(history.getByText('Must be 1 or greater')).toBeVisible()
    const api = await apiAs(request, baseURL!, user.username, user.password)
    expect(await api.call(getProject, { params: { project_id: project.id } })).toMatchObject({
      task_retention_days: null,
      max_tasks_per_template: null,
    })

    await days.fill('45')
    await perTemplate.fill('200')
    await history.getByRole('button', { name: 'Save' }).click()
    await expect(snackbar(page, 'Task history settings saved')).toBeVisible()
    expect(await api.call(getProject, { params: { project_id: project.id } })).toMatchObject({
      name: project.name,
      task_retention_days: 45,
      max_tasks_per_template: 200,
    })
    await expectAccessible(page)

    await page.reload()
    await expect(days).toHaveValue('45')
    await expect(perTemplate).toHaveValue('200')
    // Saving the general section leaves them as they are.
    const general = page.getByRole('region', { name: 'General' })
    await general.getByRole('textbox', { name: 'Max number of parallel tasks' }).fill('2')
    await general.getByRole('button', { name: 'Save' }).click()
    await expect(snackbar(page, `Project ${project.name} saved`)).toBeVisible()
    expect(await api.call(getProject, { params: { project_id: project.id } })).toMatchObject({
      max_parallel_tasks: 2,
      task_retention_days: 45,
      max_tasks_per_template: 200,
    })
  })

  test('deleting a project asks first, then selects the first remaining project', async ({
    page,
    adminApi,
    request,
    baseURL,
  }) => {
    const id = uniqueId()
    const { user, projects } = await newMemberWithProjects(adminApi, [
      `Alpha Keep ${id}`,
      `Bravo Delete ${id}`,
      `Charlie Keep ${id}`,
    ])
    const [alpha, bravo, charlie] = projects as [
      (typeof projects)[0],
      (typeof projects)[0],
      (typeof projects)[0],
    ]
    await signIn(page, user.username, user.password)
    await page.goto(`/project/${bravo.id}/settings`)

    const danger = page.getByRole('region', { name: 'Danger Zone' })
    await danger.getByRole('button', { name: 'Delete project' }).click()
    const confirm = dialog(page, 'Delete project?')
    await expect(confirm).toContainText(bravo.name)
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await expect(confirm).toBeHidden()
    await expect(page).toHaveURL(new RegExp(`/project/${bravo.id}/settings$`))

    await danger.getByRole('button', { name: 'Delete project' }).click()
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click()
    await expect(snackbar(page, `Project ${bravo.name} deleted`)).toBeVisible()
    await expect(page).toHaveURL(new RegExp(`/project/${alpha.id}/history$`))
    await expect(page.getByRole('heading', { level: 1, name: alpha.name })).toBeVisible()
    await expect(projectPicker(page)).toContainText(alpha.name)

    await projectPicker(page).click()
    await expect(page.getByRole('menu')).toMatchAriaSnapshot(`
      - menu:
        - menuitem "${alpha.name}"
        - menuitem "${charlie.name}"
    `)

    const api = await apiAs(request, baseURL!, user.username, user.password)
    const left = await api.call(listProjects)
    expect(left.map((project) => project.id)).toEqual([alpha.id, charlie.id])
  })
})
