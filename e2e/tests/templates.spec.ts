import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type ApiClient,
  appRoutes,
  DEFAULT_APP_IDS,
  environmentRoutes,
  inventoryRoutes,
  keyRoutes,
  repositoryRoutes,
  templateRoutes,
} from '@flagman/contract'
import { type Locator, type Page } from '@playwright/test'
import {
  dialog,
  expect,
  newProject,
  saveScreenshot,
  signIn,
  snackbar,
  test,
  uniqueId,
} from '../support/fixtures.js'

const TABLE = 'Task Templates'

/** Picks an option of a select (MUI renders it as a combobox with a listbox). */
async function choose(form: Locator, page: Page, label: string | RegExp, option: string) {
  await form.getByRole('combobox', { name: label }).click()
  await page.getByRole('option', { name: option, exact: true }).click()
}

function row(page: Page, name: string): Locator {
  return page
    .getByRole('table', { name: TABLE })
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name, exact: true }) })
}

/** Apps start active only when their program is installed; the tests need them all. */
async function activateApps(api: ApiClient) {
  for (const id of DEFAULT_APP_IDS) {
    await api.call(appRoutes.setActive, { params: { app_id: id }, body: { active: true } })
  }
}

/** A project with a repository, an inventory and an environment templates can use. */
async function projectWithResources(api: ApiClient, name: string) {
  const project = await newProject(api, name)
  const params = { project_id: project.id }
  const key = await api.call(keyRoutes.create, {
    params,
    body: { name: 'none', type: 'none', project_id: project.id },
  })
  const repository = await api.call(repositoryRoutes.create, {
    params,
    body: {
      name: 'site',
      git_url: 'https://example.com/acme/site.git',
      git_branch: 'main',
      ssh_key_id: key.id,
      project_id: project.id,
    },
  })
  const inventory = await api.call(inventoryRoutes.create, {
    params,
    body: {
      name: 'hosts',
      type: 'static',
      inventory: 'localhost',
      ssh_key_id: key.id,
      project_id: project.id,
    },
  })
  const environment = await api.call(environmentRoutes.create, {
    params,
    body: { name: 'staging', json: '{}', env: '{}', project_id: project.id },
  })
  return { project, repository, inventory, environment }
}

async function openNewTemplate(page: Page, appTitle: string): Promise<Locator> {
  await page.getByRole('button', { name: 'New template' }).click()
  await page.getByRole('menuitem', { name: appTitle, exact: true }).click()
  const form = dialog(page, `New ${appTitle} template`)
  await expect(form).toBeVisible()
  return form
}

interface AppCase {
  title: string
  playbookLabel: string
  playbookRequired: boolean
  inventory: boolean
  vaults: boolean
  playbook: string
}

const APPS: AppCase[] = [
  {
    title: 'Ansible',
    playbookLabel: 'Playbook filename',
    playbookRequired: true,
    inventory: true,
    vaults: true,
    playbook: 'site.yml',
  },
  {
    title: 'Terraform',
    playbookLabel: 'Subdirectory path',
    playbookRequired: false,
    inventory: false,
    vaults: false,
    playbook: 'infra',
  },
  {
    title: 'OpenTofu',
    playbookLabel: 'Subdirectory path',
    playbookRequired: false,
    inventory: false,
    vaults: false,
    playbook: '',
  },
  {
    title: 'Pulumi',
    playbookLabel: 'Program',
    playbookRequired: false,
    inventory: false,
    vaults: false,
    playbook: 'stack',
  },
  {
    title: 'Bash',
    playbookLabel: 'Script filename',
    playbookRequired: true,
    inventory: false,
    vaults: false,
    playbook: 'deploy.sh',
  },
  {
    title: 'Python',
    playbookLabel: 'Script filename',
    playbookRequired: true,
    inventory: false,
    vaults: false,
    playbook: 'main.py',
  },
  {
    title: 'PowerShell',
    playbookLabel: 'Script filename',
    playbookRequired: true,
    inventory: false,
    vaults: false,
    playbook: 'run.ps1',
  },
]

test.describe('task templates', () => {
  test.beforeEach(async ({ adminApi }) => {
    await activateApps(adminApi)
  })

  test('creates a template of every app through the dialog and copies one', async ({
    page,
    adminApi,
  }) => {
    const { project } = await projectWithResources(adminApi, `Templates ${uniqueId()}`)
    await signIn(page)
    await page.goto(`/project/${project.id}/templates`)
    await expect(page.getByRole('heading', { level: 1, name: 'Task Templates' })).toBeVisible()
    await expect(page.getByText('No templates yet')).toBeVisible()

    for (const app of APPS) {
      const form = await openNewTemplate(page, app.title)
      const playbook = form.getByRole('textbox', { name: app.playbookLabel })
      if (app.playbookRequired) await expect(playbook).toHaveAttribute('required', '')
      else await expect(playbook).not.toHaveAttribute('required', '')
      await expect(form.getByRole('combobox', { name: /^Inventory/ })).toHaveCount(
        app.inventory ? 1 : 0,
      )
      await expect(form.getByRole('button', { name: 'Add vault' })).toHaveCount(app.vaults ? 1 : 0)

      // Saving empty shows the required fields of the app.
      await form.getByRole('button', { name: 'Create' }).click()
      await expect(form.getByText('Name is required', { exact: true })).toBeVisible()
      await expect(form.getByText('Repository is required', { exact: true })).toBeVisible()
      await expect(form.getByText(`${app.playbookLabel} is required`, { exact: true })).toHaveCount(
        app.playbookRequired ? 1 : 0,
      )

      const name = `${app.title} job`
      await form.getByRole('textbox', { name: 'Name', exact: true }).fill(name)
      if (app.playbook) await playbook.fill(app.playbook)
      await choose(form, page, /^Repository/, 'site')
      if (app.inventory) await choose(form, page, /^Inventory/, 'hosts')
      await form.getByRole('button', { name: 'Create' }).click()
      await expect(snackbar(page, `Template ${name} created`)).toBeVisible()
      await expect(form).toBeHidden()
      await expect(row(page, name)).toBeVisible()
    }

    const templates = await adminApi.call(templateRoutes.list, {
      params: { project_id: project.id },
    })
    expect(templates.map((template) => template.app).sort()).toEqual([...DEFAULT_APP_IDS].sort())
    const ansible = templates.find((template) => template.app === 'ansible')
    expect(ansible?.playbook).toBe('site.yml')
    expect(ansible?.inventory_id).not.toBeNull()
    await expect(row(page, 'Ansible job')).toContainText('hosts')
    await saveScreenshot(page, 'templates-list')

    // Copy: the dialog is filled from the template and the new one opens.
    await row(page, 'Bash job').getByRole('button', { name: 'Copy Bash job' }).click()
    const copy = dialog(page, 'Copy template')
    await expect(copy.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(
      'Bash job (copy)',
    )
    await expect(copy.getByRole('textbox', { name: 'Script filename' })).toHaveValue('deploy.sh')
    await copy.getByRole('button', { name: 'Create' }).click()
    await expect(snackbar(page, 'Template Bash job (copy) created')).toBeVisible()
    await expect(page).toHaveURL(/\/templates\/\d+\/tasks$/)
    const breadcrumbs = page.getByRole('navigation', { name: 'Breadcrumbs' })
    await expect(breadcrumbs).toContainText('Bash job (copy)')
    await expect(page.getByRole('button', { name: 'Run' })).toBeEnabled()
    await expect(page.getByText('No tasks yet')).toBeVisible()
    await expect(page.getByRole('tab', { name: 'Workspaces' })).toHaveCount(0)
    await page.getByRole('tab', { name: 'Details' }).click()
    await expect(page.getByText('deploy.sh')).toBeVisible()
    await saveScreenshot(page, 'template-details')

    // A Terraform copy gets a workspace of its own; the original keeps its one.
    await page.goto(`/project/${project.id}/templates`)
    await row(page, 'Terraform job').getByRole('button', { name: 'Copy Terraform job' }).click()
    const terraformCopy = dialog(page, 'Copy template')
    await expect(terraformCopy.getByRole('textbox', { name: 'Subdirectory path' })).toHaveValue(
      'infra',
    )
    await terraformCopy.getByRole('button', { name: 'Create' }).click()
    await expect(snackbar(page, 'Template Terraform job (copy) created')).toBeVisible()
    await expect(page).toHaveURL(/\/templates\/\d+\/tasks$/)
    await expect(page.getByRole('tab', { name: 'Workspaces' })).toBeVisible()
    const copies = await adminApi.call(templateRoutes.list, {
      params: { project_id: project.id },
    })
    const original = copies.find((template) => template.name === 'Terraform job')
    const copied = copies.find((template) => template.name === 'Terraform job (copy)')
    expect(copied?.playbook).toBe('infra')
    expect(copied?.inventory_id).not.toBeNull()
    expect(original?.inventory_id).not.toBeNull()
    expect(copied?.inventory_id).not.toBe(original?.inventory_id)
  })

  test('edits views, reorders their tabs and remembers hidden columns', async ({
    page,
    adminApi,
  }) => {
    const { project, repository } = await projectWithResources(adminApi, `Views ${uniqueId()}`)
    await adminApi.call(templateRoutes.create, {
      params: { project_id: project.id },
      body: {
        name: 'Provision',
        app: 'bash',
        playbook: 'provision.sh',
        repository_id: repository.id,
        project_id: project.id,
      },
    })
    await signIn(page)
    await page.goto(`/project/${project.id}/templates`)
    const tabs = page.getByRole('tablist', { name: 'Views' })
    await expect(tabs.getByRole('tab')).toHaveText(['All'])

    await page.getByRole('button', { name: 'Edit views' }).click()
    await page.getByRole('button', { name: 'Add view' }).click()
    await page.getByRole('textbox', { name: 'View title' }).last().fill('Alpha')
    await page.getByRole('button', { name: 'Add view' }).click()
    await page.getByRole('textbox', { name: 'View title' }).last().fill('Beta')
    await page.getByRole('button', { name: 'Save views' }).click()
    await expect(snackbar(page, 'Views saved')).toBeVisible()
    await expect(tabs.getByRole('tab')).toHaveText(['All', 'Alpha', 'Beta'])

    await page.getByRole('button', { name: 'Edit views' }).click()
    await page.getByRole('button', { name: 'Move Beta left' }).click()
    await page.getByRole('button', { name: 'Save views' }).click()
    await expect(tabs.getByRole('tab')).toHaveText(['All', 'Beta', 'Alpha'])

    // Cancelling leaves the views as they are.
    await page.getByRole('button', { name: 'Edit views' }).click()
    await page.getByRole('button', { name: 'Delete view Alpha' }).click()
    await page.getByRole('button', { name: 'Cancel editing' }).click()
    await expect(tabs.getByRole('tab')).toHaveText(['All', 'Beta', 'Alpha'])

    await page.reload()
    await expect(tabs.getByRole('tab')).toHaveText(['All', 'Beta', 'Alpha'])
    await tabs.getByRole('tab', { name: 'Beta' }).click()
    await expect(page).toHaveURL(/\/views\/\d+\/templates$/)
    await expect(page.getByText('No templates yet')).toBeVisible()

    // The list remembers the view visited last; the All tab still shows every template.
    await page.goto(`/project/${project.id}/templates`)
    await expect(page).toHaveURL(/\/views\/\d+\/templates$/)
    await expect(tabs.getByRole('tab', { name: 'Beta' })).toHaveAttribute('aria-selected', 'true')
    await tabs.getByRole('tab', { name: 'All' }).click()
    await expect(page).toHaveURL(new RegExp(`/project/${project.id}/templates$`))
    await expect(row(page, 'Provision')).toBeVisible()

    // An unknown view leads back to the plain list.
    await page.goto(`/project/${project.id}/views/999999/templates`)
    await expect(page).toHaveURL(new RegExp(`/project/${project.id}/templates$`))

    // Column visibility is stored in the browser.
    const table = page.getByRole('table', { name: TABLE })
    await expect(table.getByRole('columnheader', { name: 'Playbook' })).toBeVisible()
    await page.getByRole('button', { name: 'Columns' }).click()
    await page.getByRole('menuitemcheckbox', { name: 'Playbook' }).click()
    await page.keyboard.press('Escape')
    await expect(table.getByRole('columnheader', { name: 'Playbook' })).toHaveCount(0)
    await page.reload()
    await expect(row(page, 'Provision')).toBeVisible()
    await expect(table.getByRole('columnheader', { name: 'Playbook' })).toHaveCount(0)
    await expect(table.getByRole('columnheader', { name: 'Repository' })).toBeVisible()
    await saveScreenshot(page, 'templates-views')
  })

  test('a build template used by a deploy template can not be deleted', async ({
    page,
    adminApi,
  }) => {
    const { project, repository } = await projectWithResources(adminApi, `Delete ${uniqueId()}`)
    const params = { project_id: project.id }
    const build = await adminApi.call(templateRoutes.create, {
      params,
      body: {
        name: 'Build app',
        app: 'bash',
        type: 'build',
        start_version: '0.0.0',
        playbook: 'build.sh',
        repository_id: repository.id,
        project_id: project.id,
      },
    })
    await adminApi.call(templateRoutes.create, {
      params,
      body: {
        name: 'Deploy app',
        app: 'bash',
        type: 'deploy',
        build_template_id: build.id,
        playbook: 'deploy.sh',
        repository_id: repository.id,
        project_id: project.id,
      },
    })
    await adminApi.call(templateRoutes.create, {
      params,
      body: {
        name: 'Cleanup',
        app: 'bash',
        playbook: 'cleanup.sh',
        repository_id: repository.id,
        project_id: project.id,
      },
    })
    await signIn(page)
    await page.goto(`/project/${project.id}/templates`)

    // Plain templates first, then build, then deploy.
    const names = page.getByRole('table', { name: TABLE }).getByRole('link')
    await expect(names).toHaveText(['Cleanup', 'Build app', 'Deploy app'])

    await row(page, 'Build app').getByRole('button', { name: 'Delete Build app' }).click()
    const refs = dialog(page, "Can't delete the template")
    await expect(refs).toContainText(
      "The template can't be deleted because it is used by the resources below",
    )
    await expect(refs).toContainText('Deploy app')
    await refs.getByRole('button', { name: 'Close' }).click()
    await expect(row(page, 'Build app')).toBeVisible()

    // An unused template is deleted after the confirmation.
    await row(page, 'Cleanup').getByRole('button', { name: 'Delete Cleanup' }).click()
    await dialog(page, 'Delete template?').getByRole('button', { name: 'Delete' }).click()
    await expect(snackbar(page, 'Template "Cleanup" deleted')).toBeVisible()
    await expect(row(page, 'Cleanup')).toHaveCount(0)
  })

  test('turns on the commit check of a template and shows it when editing again', async ({
    page,
    adminApi,
  }) => {
    const { project } = await projectWithResources(adminApi, `Commit check ${uniqueId()}`)
    const params = { project_id: project.id }
    const keys = await adminApi.call(keyRoutes.list, { params })
    // A local folder: the clock never reaches beyond this machine when it checks.
    const folder = mkdtempSync(join(tmpdir(), 'flagman-e2e-repo-'))
    const local = await adminApi.call(repositoryRoutes.create, {
      params,
      body: {
        name: 'local',
        git_url: folder,
        git_branch: '',
        ssh_key_id: keys[0]?.id ?? 0,
        project_id: project.id,
      },
    })
    await adminApi.call(templateRoutes.create, {
      params,
      body: {
        name: 'Watched',
        app: 'bash',
        playbook: 'watch.sh',
        repository_id: local.id,
        project_id: project.id,
      },
    })
    await signIn(page)
    await page.goto(`/project/${project.id}/templates`)

    await row(page, 'Watched').getByRole('button', { name: 'Edit Watched' }).click()
    const form = dialog(page, 'Edit template')
    const toggle = form.getByRole('switch', { name: 'Check the repository for new commits' })
    await expect(toggle).not.toBeChecked()
    await toggle.check()
    await choose(form, page, /^Check interval/, '24 hours')
    await form.getByRole('checkbox', { name: 'Allow branch override in task' }).check()
    await form.getByRole('button', { name: 'Save' }).click()
    await expect(snackbar(page, 'Template Watched saved')).toBeVisible()
    await expect(form).toBeHidden()

    await row(page, 'Watched').getByRole('button', { name: 'Edit Watched' }).click()
    await expect(toggle).toBeChecked()
    await expect(form.getByRole('combobox', { name: /^Check interval/ })).toHaveText('24 hours')
    await expect(
      form.getByRole('checkbox', { name: 'Allow branch override in task' }),
    ).toBeChecked()
    await toggle.scrollIntoViewIfNeeded()
    await saveScreenshot(page, 'template-commit-check')
    await form.getByRole('button', { name: 'Cancel' }).click()

    const [template] = await adminApi.call(templateRoutes.list, { params })
    expect(template?.task_params).toEqual({ allow_override_branch_in_task: true })
    const checks = await adminApi.call(templateRoutes.schedules, {
      params: { ...params, template_id: template?.id ?? 0 },
    })
    expect(checks).toEqual([
      {
        id: expect.any(Number),
        project_id: project.id,
        template_id: template?.id,
        name: 'Watched',
        cron_format: '0 0 * * *',
        active: true,
        repository_id: local.id,
        timezone: '',
        missed_run_policy: 'skip',
        last_run: null,
        last_miss: null,
      },
    ])
    rmSync(folder, { recursive: true, force: true })
  })

  test('administrators manage applications', async ({ page, adminApi }) => {
    const id = `app${uniqueId()}`.slice(0, 20)
    await signIn(page)
    await page.goto('/apps')
    await expect(page.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible()
    const table = page.getByRole('table', { name: 'Applications' })
    const ansible = table.getByRole('row').filter({ hasText: 'ansible' }).first()
    await expect(ansible.getByRole('button', { name: 'Edit Ansible' })).toBeVisible()
    await expect(ansible.getByRole('button', { name: /^Delete/ })).toHaveCount(0)

    await page.getByRole('button', { name: 'New application' }).click()
    const form = dialog(page, 'New application')
    await form.getByRole('button', { name: 'Create' }).click()
    await expect(form.getByText('ID is required')).toBeVisible()
    await form.getByRole('textbox', { name: 'ID' }).fill(id)
    await form.getByRole('textbox', { name: 'Title' }).fill('Custom runner')
    await form.getByRole('textbox', { name: 'Path' }).fill('/usr/bin/env')
    await form.getByRole('button', { name: 'Create' }).click()
    await expect(snackbar(page, 'Application Custom runner saved')).toBeVisible()
    const apps = await adminApi.call(appRoutes.list, {})
    expect(apps.find((app) => app.id === id)?.path).toBe('/usr/bin/env')
    await saveScreenshot(page, 'apps')
    await adminApi.call(appRoutes.remove, { params: { app_id: id } })
  })
})
