import {
  appRoutes,
  inventoryRoutes,
  keyRoutes,
  repositoryRoutes,
  templateRoutes,
} from '@flagman/contract'
import {
  dialog,
  expect,
  expectAccessible,
  newProject,
  signIn,
  snackbar,
  test,
  uniqueId,
} from '../support/fixtures.js'

test.describe('terraform workspaces', () => {
  test('creates, attaches, makes default, detaches and deletes workspaces', async ({
    page,
    adminApi,
  }) => {
    await adminApi.call(appRoutes.setActive, {
      params: { app_id: 'terraform' },
      body: { active: true },
    })
    const project = await newProject(adminApi, `Workspaces ${uniqueId()}`)
    const params = { project_id: project.id }
    const key = await adminApi.call(keyRoutes.create, {
      params,
      body: { name: 'deploy key', type: 'none', project_id: project.id },
    })
    const repository = await adminApi.call(repositoryRoutes.create, {
      params,
      body: {
        name: 'infra',
        git_url: 'https://example.com/acme/infra.git',
        git_branch: 'main',
        ssh_key_id: key.id,
        project_id: project.id,
      },
    })
    const template = await adminApi.call(templateRoutes.create, {
      params,
      body: {
        name: 'network',
        app: 'terraform',
        repository_id: repository.id,
        project_id: project.id,
      },
    })
    // A workspace nobody owns yet, to attach.
    await adminApi.call(inventoryRoutes.create, {
      params,
      body: {
        name: 'shared staging',
        type: 'terraform-workspace',
        inventory: 'staging',
        ssh_key_id: key.id,
        project_id: project.id,
      },
    })

    await signIn(page)
    await page.goto(`/project/${project.id}/templates/${template.id}/state`)
    const panel = page.getByRole('region', { name: 'Workspaces' })
    const buttons = panel.getByRole('group', { name: 'Workspaces' })
    await expect(buttons.getByRole('button', { name: 'Default workspace default' })).toBeVisible()

    // New: both fields are required.
    await page.getByRole('button', { name: 'Add workspace' }).click()
    await page.getByRole('menuitem', { name: 'New workspace' }).click()
    const create = dialog(page, 'New workspace')
    await create.getByRole('button', { name: 'Create' }).click()
    await expect(create.getByText('Name is required')).toBeVisible()
    await expect(create.getByText('Key is required')).toBeVisible()
    await create.getByRole('textbox', { name: 'Workspace name' }).fill('production')
    await create.getByRole('combobox', { name: 'Access key' }).click()
    await page.getByRole('option', { name: 'deploy key' }).click()
    await expectAccessible(page, '[role="dialog"]')
    await create.getByRole('button', { name: 'Create' }).click()
    await expect(snackbar(page, 'Workspace production created')).toBeVisible()
    await expect(buttons.getByRole('button', { name: 'production' })).toHaveAttribute(
      'aria-pressed',
      'true',
    )

    // Attach the free one.
    await page.getByRole('button', { name: 'Add workspace' }).click()
    await page.getByRole('menuitem', { name: 'Attach existing workspace' }).click()
    const attach = dialog(page, 'Attach existing workspace')
    await attach.getByRole('combobox', { name: 'Workspace' }).click()
    await page.getByRole('option', { name: 'shared staging' }).click()
    await attach.getByRole('button', { name: 'Attach' }).click()
    await expect(snackbar(page, 'Workspace staging attached')).toBeVisible()

    // Make production the default: the default one can be neither detached nor deleted.
    await buttons.getByRole('button', { name: 'production' }).click()
    await panel.getByRole('button', { name: 'Make default' }).click()
    await expect(snackbar(page, 'production is now the default workspace')).toBeVisible()
    await expect(
      buttons.getByRole('button', { name: 'Default workspace production' }),
    ).toBeVisible()
    await expect(panel.getByRole('button', { name: 'Detach' })).toBeDisabled()
    await expect(panel.getByRole('button', { name: 'Delete' })).toBeDisabled()
    const saved = await adminApi.call(templateRoutes.get, {
      params: { ...params, template_id: template.id },
    })
    const workspaces = await adminApi.call(inventoryRoutes.list, {
      params,
      query: { template_id: template.id },
    })
    expect(workspaces?.find((w) => w.id === saved.inventory_id)?.inventory).toBe('production')

    // Detach staging, delete the old default after confirming.
    await buttons.getByRole('button', { name: 'staging' }).click()
    await panel.getByRole('button', { name: 'Detach' }).click()
    await expect(snackbar(page, 'Workspace staging detached')).toBeVisible()
    await expect(buttons.getByRole('button', { name: 'staging' })).toHaveCount(0)
    await buttons.getByRole('button', { name: 'default', exact: true }).click()
    await panel.getByRole('button', { name: 'Delete' }).click()
    const confirm = dialog(page, 'Delete workspace?')
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await expect(snackbar(page, 'Workspace default deleted')).toBeVisible()
    await expect(buttons.getByRole('button')).toHaveCount(1)
    await expectAccessible(page)
  })
})
