import {
  appRoutes,
  inventoryRoutes,
  keyRoutes,
  repositoryRoutes,
  templateRoutes,
  terraformRoutes,
} from '@flagman/contract'
import type { APIRequestContext } from '@playwright/test'
import { ADMIN } from '../support/constants.js'
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

const LOGIN = 'terraform'
const PASSWORD = `state-${uniqueId()}-secret`
const LINEAGE = '6f1c2d3e-4b5a-4978-8c6d-5e4f3a2b1c0d'

/** A state as Terraform writes it (format 4) with these resources and outputs. */
function stateText(
  serial: number,
  resources: { name: string; triggers: string }[],
  outputs: Record<string, string>,
): string {
  return JSON.stringify({
    version: 4,
    terraform_version: '1.9.0',
    serial,
    lineage: LINEAGE,
    outputs: Object.fromEntries(
      Object.entries(outputs).map(([name, value]) => [name, { value, type: 'string' }]),
    ),
    resources: resources.map(({ name, triggers }) => ({
      mode: 'managed',
      type: 'null_resource',
      name,
      provider: 'provider["registry.terraform.io/hashicorp/null"]',
      instances: [{ schema_version: 0, attributes: { id: `${name}-id`, triggers: { triggers } } }],
    })),
  })
}

/** Calls the HTTP backend as Terraform does, with the alias key's credentials. */
async function backend(
  request: APIRequestContext,
  url: string,
  method: 'GET' | 'POST' | 'LOCK' | 'UNLOCK',
  data?: string,
) {
  const authorization = `Basic ${Buffer.from(`${LOGIN}:${PASSWORD}`).toString('base64')}`
  return request.fetch(url, {
    method,
    data,
    headers: { Authorization: authorization, 'Content-Type': 'application/json' },
  })
}

test.describe('terraform state backend', () => {
  test('aliases, stored versions, diff, lock and restore in the Workspaces panel', async ({
    page,
    context,
    request,
    baseURL,
    adminApi,
  }) => {
    await adminApi.call(appRoutes.setActive, {
      params: { app_id: 'terraform' },
      body: { active: true },
    })
    const project = await newProject(adminApi, `State ${uniqueId()}`)
    const params = { project_id: project.id }
    await adminApi.call(keyRoutes.create, {
      params,
      body: {
        name: 'state login',
        type: 'login_password',
        project_id: project.id,
        login_password: { login: LOGIN, password: PASSWORD },
      },
    })
    const none = await adminApi.call(keyRoutes.create, {
      params,
      body: { name: 'no key', type: 'none', project_id: project.id },
    })
    const repository = await adminApi.call(repositoryRoutes.create, {
      params,
      body: {
        name: 'infra',
        git_url: 'https://example.com/acme/infra.git',
        git_branch: 'main',
        ssh_key_id: none.id,
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

    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL })
    await signIn(page)
    await page.goto(`/project/${project.id}/templates/${template.id}/state`)
    const aliases = page.getByRole('region', { name: 'HTTP backend' })
    const states = page.getByRole('region', { name: 'States' })
    const lock = page.getByRole('region', { name: 'State lock' })
    await expect(aliases.getByText('There is no aliases.')).toBeVisible()
    await expect(states.getByText('No state available.')).toBeVisible()
    await expect(lock.getByText('Unlocked')).toBeVisible()

    // A new alias needs its key.
    await aliases.getByRole('button', { name: 'New alias' }).click()
    const create = dialog(page, 'New alias')
    await create.getByRole('button', { name: 'Create' }).click()
    await expect(create.getByText('Key is required')).toBeVisible()
    await create.getByRole('combobox', { name: 'Key' }).click()
    await page.getByRole('option', { name: 'state login' }).click()
    await expectAccessible(page, '[role="dialog"]')
    await create.getByRole('button', { name: 'Create' }).click()
    await expect(snackbar(page, 'Alias created')).toBeVisible()
    await expect(aliases.getByText('Key: state login')).toBeVisible()

    await aliases.getByRole('button', { name: /^Copy URL / }).click()
    await expect(snackbar(page, 'The URL has been copied to the clipboard.')).toBeVisible()
    const url = await page.evaluate(() => navigator.clipboard.readText())
    expect(url).toMatch(/\/api\/terraform\/[a-z0-9]+$/)
    await expect(aliases.getByText(url, { exact: true })).toBeVisible()

    // Terraform writes two versions, then takes the lock, as `terraform apply` would.
    expect((await backend(request, url, 'GET')).status()).toBe(204)
    const first = stateText(
      1,
      [
        { name: 'a', triggers: 'one' },
        { name: 'b', triggers: 'one' },
      ],
      {
        ip: '10.0.0.1',
      },
    )
    expect((await backend(request, url, 'POST', first)).status()).toBe(200)
    const second = stateText(
      2,
      [
        { name: 'a', triggers: 'two' },
        { name: 'c', triggers: 'one' },
      ],
      { ip: '10.0.0.2' },
    )
    expect((await backend(request, url, 'POST', second)).status()).toBe(200)
    const lockInfo = JSON.stringify({
      ID: 'f0e1d2c3-lock',
      Operation: 'OperationTypeApply',
      Who: 'ci@build-host',
      Version: '1.9.0',
      Created: new Date().toISOString(),
      Path: '',
    })
    expect((await backend(request, url, 'LOCK', lockInfo)).status()).toBe(200)
    const [workspace] =
      (await adminApi.call(inventoryRoutes.list, {
        params,
        query: { template_id: template.id },
      })) ?? []
    const saved = await adminApi.call(terraformRoutes.listStates, {
      params: { ...params, inventory_id: workspace?.id ?? 0 },
    })
    expect(saved).toHaveLength(2)
    const newest = saved[0]!
    const oldest = saved[1]!

    await page.reload()
    const table = states.getByRole('table', { name: 'States' })
    await expect(table.getByRole('row')).toHaveCount(3)
    await expect(table.getByRole('row').nth(1)).toContainText(`#${newest.id}`)
    await expect(table.getByRole('row').nth(1)).toContainText('alias')

    // The newest version, indented.
    await states.getByRole('button', { name: `Show the content of version #${newest.id}` }).click()
    const content = states.getByRole('region', { name: `Content of version #${newest.id}` })
    await expect(content).toContainText('"serial": 2')
    await expect(content).toContainText('\n  "lineage": ')
    await expectAccessible(page)
    await states.getByRole('button', { name: `Hide the content of version #${newest.id}` }).click()
    await expect(content).toBeHidden()

    // What changed from the first version.
    await states
      .getByRole('button', { name: `Compare version #${newest.id} with the previous one` })
      .click()
    const diff = dialog(page, 'Compare state versions')
    await expect(diff.getByRole('region', { name: 'Added (1)' })).toContainText('null_resource.c')
    await expect(diff.getByRole('region', { name: 'Changed (1)' })).toContainText('null_resource.a')
    await expect(diff.getByRole('region', { name: 'Changed (1)' })).toContainText(
      'Attributes: triggers',
    )
    await expect(diff.getByRole('region', { name: 'Removed (1)' })).toContainText('null_resource.b')
    await expect(diff.getByRole('region', { name: 'Outputs' })).toContainText('ip')
    await expectAccessible(page, '[role="dialog"]')
    await diff.getByRole('button', { name: 'Close' }).click()
    await expect(diff).toBeHidden()

    // Locked by Terraform: no restore until a force unlock.
    await expect(lock.getByText('Locked')).toBeVisible()
    await expect(lock.getByText('Held by ci@build-host')).toBeVisible()
    await expect(lock.getByText('Operation: OperationTypeApply')).toBeVisible()
    const restore = states.getByRole('button', { name: `Restore version #${oldest.id}` })
    await expect(restore).toBeDisabled()
    await expectAccessible(page)
    await lock.getByRole('button', { name: 'Force unlock' }).click()
    await dialog(page, 'Force unlock?').getByRole('button', { name: 'Force unlock' }).click()
    await expect(snackbar(page, 'The state has been unlocked')).toBeVisible()
    await expect(lock.getByText('Unlocked')).toBeVisible()

    // The first version becomes the current one again, as a new version.
    await expect(restore).toBeEnabled()
    await restore.click()
    await dialog(page, 'Restore state version?').getByRole('button', { name: 'Restore' }).click()
    await expect(snackbar(page, `Version #${oldest.id} restored as #`)).toBeVisible()
    await expect(table.getByRole('row')).toHaveCount(4)
    await expect(table.getByRole('row').nth(1)).toContainText(
      `restored by ${ADMIN.name} from #${oldest.id}`,
    )
    const current = await backend(request, url, 'GET')
    expect(current.status()).toBe(200)
    expect(
      ((await current.json()) as { resources: { name: string }[] }).resources.map((r) => r.name),
    ).toEqual(['a', 'b'])

    // On a phone the panel fits the screen: the table and the state text scroll on their own.
    await page.setViewportSize({ width: 375, height: 740 })
    await states.getByRole('button', { name: `Show the content of version #${oldest.id}` }).click()
    await expect(
      states.getByRole('region', { name: `Content of version #${oldest.id}` }),
    ).toContainText('"serial": 1')
    expect(
      await page.evaluate(
        () =>
          Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) -
          document.documentElement.clientWidth,
      ),
    ).toBe(0)

    // Deleting the alias, after confirming, shuts the address.
    await aliases.getByRole('button', { name: `Delete alias ${url}` }).click()
    await dialog(page, 'Delete alias?').getByRole('button', { name: 'Delete' }).click()
    await expect(snackbar(page, 'Alias deleted')).toBeVisible()
    await expect(aliases.getByText('There is no aliases.')).toBeVisible()
    expect((await backend(request, url, 'GET')).status()).toBe(404)
  })
})
