import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type ApiClient,
  environmentRoutes,
  inventoryRoutes,
  keyRoutes,
  listTeam,
  type Project,
  repositoryRoutes,
} from '@flagman/contract'
import { type Locator, type Page } from '@playwright/test'
import {
  addMember,
  dialog,
  expect,
  expectAccessible,
  newProject,
  newUser,
  signIn,
  snackbar,
  test,
  uniqueId,
} from '../support/fixtures.js'

/** A fresh ed25519 private key without a passphrase, as `ssh-keygen` writes it. */
function generatePrivateKey(): string {
  const dir = mkdtempSync(join(tmpdir(), 'flagman-e2e-key-'))
  try {
    const file = join(dir, 'id_ed25519')
    execFileSync('ssh-keygen', ['-t', 'ed25519', '-N', '', '-q', '-C', 'e2e', '-f', file])
    return readFileSync(file, 'utf8')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function table(page: Page, title: string): Locator {
  return page.getByRole('table', { name: title })
}

function row(page: Page, title: string, name: string): Locator {
  return table(page, title)
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name, exact: true }) })
}

/** Picks an option of a select (MUI renders it as a combobox with a listbox). */
async function choose(form: Locator, page: Page, label: string | RegExp, option: string) {
  await form.getByRole('combobox', { name: label }).click()
  await page.getByRole('option', { name: option, exact: true }).click()
}

async function createKeyByApi(api: ApiClient, project: Project, name: string, privateKey: string) {
  return api.call(keyRoutes.create, {
    params: { project_id: project.id },
    body: {
      name,
      type: 'ssh',
      project_id: project.id,
      ssh: { login: 'git', passphrase: '', private_key: privateKey },
    },
  })
}

test.describe('project resources', () => {
  test('an owner prepares a key, a repository, an inventory and an environment', async ({
    page,
    adminApi,
  }) => {
    const project = await newProject(adminApi, `Resources ${uniqueId()}`)
    const privateKey = generatePrivateKey()
    await signIn(page)

    // Key store: an SSH key with a real private key.
    await page.goto(`/project/${project.id}/keys`)
    await expect(page.getByRole('heading', { level: 1, name: 'Key Store' })).toBeVisible()
    await page.getByRole('button', { name: 'New key' }).click()
    const keyForm = dialog(page, 'New key')
    await keyForm.getByRole('textbox', { name: 'Name', exact: true }).fill('deploy')
    await choose(keyForm, page, /^Type/, 'SSH key')
    await keyForm.getByRole('textbox', { name: 'Login (optional)' }).fill('git')
    await keyForm.getByRole('textbox', { name: 'Private key' }).fill(privateKey)
    await keyForm.getByRole('button', { name: 'Create' }).click()
    await expect(snackbar(page, 'Key deploy created')).toBeVisible()
    await expect(keyForm).toBeHidden()
    await expect(row(page, 'Key Store', 'deploy')).toContainText('SSH key')

    // The secret is never read back.
    const keys = await adminApi.call(keyRoutes.list, { params: { project_id: project.id } })
    const deploy = keys.find((key) => key.name === 'deploy')
    expect(deploy?.ssh.private_key).toBe('')
    expect(JSON.stringify(keys)).not.toContain('OPENSSH PRIVATE KEY')

    // Repository: the URL is checked before it is sent.
    await page.getByRole('link', { name: 'Repositories' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Repositories' })).toBeVisible()
    await page.getByRole('button', { name: 'New repository' }).click()
    const repositoryForm = dialog(page, 'New repository')
    await repositoryForm.getByRole('textbox', { name: 'Name', exact: true }).fill('site')
    const url = repositoryForm.getByRole('textbox', { name: 'URL or path' })
    await url.fill('ftp://example.com/site.git')
    await repositoryForm.getByRole('button', { name: 'Create' }).click()
    await expect(repositoryForm.getByText('Incorrect URL')).toBeVisible()
    await url.fill('  https://example.com/acme/site.git  ')
    await repositoryForm.getByRole('textbox', { name: 'Branch' }).fill('main')
    await choose(repositoryForm, page, /^Access key/, 'deploy')
    await repositoryForm.getByRole('button', { name: 'Create' }).click()
    await expect(snackbar(page, 'Repository site created')).toBeVisible()
    const siteRow = row(page, 'Repositories', 'site')
    await expect(siteRow).toContainText('https://example.com/acme/site.git')
    await expect(siteRow).toContainText('deploy')

    // Inventory: static hosts reached with the key.
    await page.getByRole('link', { name: 'Inventory' }).click()
    await page.getByRole('button', { name: 'New inventory' }).click()
    const inventoryForm = dialog(page, 'New inventory')
    await inventoryForm.getByRole('textbox', { name: 'Name', exact: true }).fill('production')
    await choose(inventoryForm, page, /^User credentials/, 'deploy')
    await inventoryForm
      .getByRole('textbox', { name: 'Inventory content' })
      .fill('[web]\nweb1.example.com\nweb2.example.com\n')
    await inventoryForm.getByRole('button', { name: 'Create' }).click()
    await expect(snackbar(page, 'Inventory production created')).toBeVisible()
    await expect(row(page, 'Inventory', 'production')).toContainText('Static')
    // A static inventory has no path: its text is not shown as one.
    await expect(row(page, 'Inventory', 'production')).toContainText('Static—')

    // Environment: a variable in the table, and a secret.
    await page.getByRole('link', { name: 'Environment' }).click()
    await page.getByRole('button', { name: 'New environment' }).click()
    const environmentForm = dialog(page, 'New environment')
    await environmentForm.getByRole('textbox', { name: 'Name', exact: true }).fill('staging')
    const extra = environmentForm.getByRole('region', { name: 'Extra variables' })
    await extra.getByRole('button', { name: 'Add variable' }).click()
    await extra.getByRole('textbox', { name: 'Name of variable 1' }).fill('region')
    await extra.getByRole('textbox', { name: 'Value of variable 1' }).fill('eu')
    await environmentForm.getByRole('button', { name: 'Add secret' }).click()
    await environmentForm.getByRole('textbox', { name: 'Name of secret 1' }).fill('API_TOKEN')
    await environmentForm.getByLabel('Value of secret 1').fill('e2e-secret-value')
    await expectAccessible(page)
    await environmentForm.getByRole('button', { name: 'Create' }).click()
    await expect(snackbar(page, 'Environment staging created')).toBeVisible()
    await expect(row(page, 'Environment', 'staging')).toBeVisible()

    const environments = await adminApi.call(environmentRoutes.list, {
      params: { project_id: project.id },
    })
    const staging = environments.find((environment) => environment.name === 'staging')
    expect(JSON.parse(staging?.json ?? '{}')).toEqual({ region: 'eu' })
    expect(JSON.stringify(environments)).not.toContain('e2e-secret-value')

    // Every change is in the project's activity.
    await page.getByRole('link', { name: 'Activity' }).click()
    const activity = table(page, 'Activity')
    await expect(activity.getByRole('row').nth(1)).toContainText('staging')
    // Worded by the console from the kind of object and its name.
    await expect(activity).toContainText('Key deploy created')
  })

  test('an owner edits resources and deletes only what nothing uses', async ({
    page,
    adminApi,
  }) => {
    const project = await newProject(adminApi, `Edit Resources ${uniqueId()}`)
    const deploy = await createKeyByApi(adminApi, project, 'deploy', generatePrivateKey())
    await adminApi.call(repositoryRoutes.create, {
      params: { project_id: project.id },
      body: {
        name: 'site',
        project_id: project.id,
        git_url: 'git@example.com:acme/site.git',
        git_branch: 'main',
        ssh_key_id: deploy.id,
      },
    })
    await adminApi.call(inventoryRoutes.create, {
      params: { project_id: project.id },
      body: {
        name: 'production',
        project_id: project.id,
        type: 'static',
        inventory: 'web1.example.com',
        ssh_key_id: deploy.id,
      },
    })
    await adminApi.call(keyRoutes.create, {
      params: { project_id: project.id },
      body: { name: 'spare', type: 'none', project_id: project.id },
    })
    const staging = await adminApi.call(environmentRoutes.create, {
      params: { project_id: project.id },
      body: {
        name: 'staging',
        project_id: project.id,
        json: '{"region": "eu"}',
        secrets: [
          { operation: 'create', type: 'env', name: 'API_TOKEN', secret: 'e2e-old-secret' },
        ],
      },
    })
    await signIn(page)

    // Edit a repository: its branch.
    await page.goto(`/project/${project.id}/repositories`)
    await row(page, 'Repositories', 'site').getByRole('button', { name: 'Edit site' }).click()
    const repositoryForm = dialog(page, 'Edit repository')
    await expect(repositoryForm.getByRole('textbox', { name: 'Branch' })).toHaveValue('main')
    await repositoryForm.getByRole('textbox', { name: 'Branch' }).fill('develop')
    await repositoryForm.getByRole('button', { name: 'Save' }).click()
    await expect(snackbar(page, 'Repository site saved')).toBeVisible()
    await expect(row(page, 'Repositories', 'site')).toContainText('(develop)')

    // Edit an inventory: YAML that does not parse is refused with the parser's reason.
    await page.getByRole('link', { name: 'Inventory' }).click()
    await row(page, 'Inventory', 'production')
      .getByRole('button', { name: 'Edit production' })
      .click()
    const inventoryForm = dialog(page, 'Edit inventory')
    await choose(inventoryForm, page, /^Type/, 'Static YAML')
    const content = inventoryForm.getByRole('textbox', { name: 'Inventory content' })
    await content.fill('all:\n  hosts: [web1.example.com\n')
    await inventoryForm.getByRole('button', { name: 'Save' }).click()
    await expect(inventoryForm.getByText(/Inventory is not valid YAML: \S/)).toBeVisible()
    await content.fill('all:\n  hosts:\n    web1.example.com:\n')
    await inventoryForm.getByRole('button', { name: 'Save' }).click()
    await expect(snackbar(page, 'Inventory production saved')).toBeVisible()
    await expect(row(page, 'Inventory', 'production')).toContainText('Static YAML')

    // Edit an environment: a variable and a new value for its secret, never shown back.
    await page.getByRole('link', { name: 'Environment' }).click()
    await row(page, 'Environment', 'staging').getByRole('button', { name: 'Edit staging' }).click()
    const environmentForm = dialog(page, 'Edit environment')
    const extra = environmentForm.getByRole('region', { name: 'Extra variables' })
    await expect(extra.getByRole('textbox', { name: 'Value of variable 1' })).toHaveValue('eu')
    await extra.getByRole('textbox', { name: 'Value of variable 1' }).fill('us')
    await expect(environmentForm.getByRole('textbox', { name: 'Name of secret 1' })).toHaveValue(
      'API_TOKEN',
    )
    const secretValue = environmentForm.getByLabel('Value of secret 1')
    await expect(secretValue).toHaveValue('')
    await secretValue.fill('e2e-new-secret')
    await environmentForm.getByRole('button', { name: 'Save' }).click()
    await expect(snackbar(page, 'Environment staging saved')).toBeVisible()
    const saved = await adminApi.call(environmentRoutes.get, {
      params: { project_id: project.id, environment_id: staging.id },
    })
    expect(JSON.parse(saved.json)).toEqual({ region: 'us' })
    expect(saved.secrets?.map((secret) => [secret.name, secret.secret])).toEqual([
      ['API_TOKEN', ''],
    ])
    expect(JSON.stringify(saved)).not.toContain('e2e-')

    // Rename a key without touching its secret.
    await page.getByRole('link', { name: 'Key Store' }).click()
    await row(page, 'Key Store', 'deploy').getByRole('button', { name: 'Edit deploy' }).click()
    const keyForm = dialog(page, 'Edit key')
    await expect(keyForm.getByRole('checkbox', { name: 'Override secret' })).not.toBeChecked()
    await expect(keyForm.getByRole('textbox', { name: 'Private key' })).toBeDisabled()
    await expect(keyForm.getByRole('textbox', { name: 'Private key' })).toHaveValue('')
    await keyForm.getByRole('textbox', { name: 'Name', exact: true }).fill('deploy-key')
    await keyForm.getByRole('button', { name: 'Save' }).click()
    await expect(snackbar(page, 'Key deploy-key saved')).toBeVisible()

    // A key that a repository and an inventory use is not deleted: they are listed instead.
    await row(page, 'Key Store', 'deploy-key')
      .getByRole('button', { name: 'Delete deploy-key' })
      .click()
    const references = dialog(page, "Can't delete the key")
    await expect(references).toContainText(
      "The key can't be deleted because it is used by the resources below",
    )
    await expect(
      references.getByRole('list', { name: 'Repositories' }).getByRole('link', { name: 'site' }),
    ).toHaveAttribute('href', `/project/${project.id}/repositories`)
    await expect(
      references
        .getByRole('list', { name: 'Inventories' })
        .getByRole('link', { name: 'production' }),
    ).toBeVisible()
    await expectAccessible(page)
    await references.getByRole('button', { name: 'Close' }).click()
    await expect(references).toBeHidden()
    await expect(row(page, 'Key Store', 'deploy-key')).toBeVisible()

    // A key nothing uses is deleted after the confirmation.
    await row(page, 'Key Store', 'spare').getByRole('button', { name: 'Delete spare' }).click()
    const confirm = dialog(page, 'Delete key?')
    await expect(confirm).toContainText('spare')
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await expect(snackbar(page, 'Key spare deleted')).toBeVisible()
    await expect(row(page, 'Key Store', 'spare')).toHaveCount(0)
    await expect(row(page, 'Key Store', 'deploy-key')).toBeVisible()
  })

  test('an owner adds a member, changes the role and removes them; others may leave', async ({
    page,
    adminApi,
  }) => {
    const project = await newProject(adminApi, `Team ${uniqueId()}`)
    const newcomer = await newUser(adminApi)
    const runner = await newUser(adminApi)
    await addMember(adminApi, project, runner, 'task_runner')
    const team = () => adminApi.call(listTeam, { params: { project_id: project.id } })
    await signIn(page)

    await page.goto(`/project/${project.id}/team`)
    await expect(page.getByRole('heading', { level: 1, name: 'Team' })).toBeVisible()
    // The owner can not leave the project.
    await expect(page.getByRole('button', { name: 'Leave project' })).toHaveCount(0)

    // Add: user and role are required.
    await page.getByRole('button', { name: 'Add member' }).click()
    const addForm = dialog(page, 'Add team member')
    await addForm.getByRole('button', { name: 'Add', exact: true }).click()
    await expect(addForm.getByText('User is required')).toBeVisible()
    await expect(addForm.getByText('Role is required')).toBeVisible()
    await choose(addForm, page, /^User/, `${newcomer.name} (${newcomer.username})`)
    await choose(addForm, page, /^Role/, 'Manager')
    await addForm.getByRole('button', { name: 'Add', exact: true }).click()
    await expect(snackbar(page, `${newcomer.name} added to the team`)).toBeVisible()
    await expect(addForm).toBeHidden()
    const newcomerRow = row(page, 'Team', newcomer.name)
    await expect(newcomerRow).toContainText(newcomer.username)
    await expect(newcomerRow.getByRole('combobox')).toHaveText('Manager')

    // Change the role in the table.
    await newcomerRow.getByRole('combobox').click()
    await page.getByRole('option', { name: 'Guest', exact: true }).click()
    await expect(snackbar(page, `Role of ${newcomer.name} changed`)).toBeVisible()
    await expect
      .poll(async () => (await team()).find((member) => member.id === newcomer.id)?.role)
      .toBe('guest')

    // Remove after the confirmation.
    await newcomerRow.getByRole('button', { name: `Remove ${newcomer.name} from the team` }).click()
    const confirm = dialog(page, 'Remove team member?')
    await expect(confirm).toContainText(newcomer.name)
    await confirm.getByRole('button', { name: 'Remove' }).click()
    await expect(snackbar(page, `${newcomer.name} removed from the team`)).toBeVisible()
    await expect(row(page, 'Team', newcomer.name)).toHaveCount(0)
    expect((await team()).map((member) => member.id)).not.toContain(newcomer.id)

    // A task runner sees the team without changes, and may leave.
    await page.context().clearCookies()
    await signIn(page, runner.username, runner.password)
    await page.goto(`/project/${project.id}/team`)
    await expect(row(page, 'Team', runner.name)).toContainText('Task runner')
    await expect(page.getByRole('button', { name: 'Add member' })).toHaveCount(0)
    await expect(table(page, 'Team').getByRole('button')).toHaveCount(0)
    await expect(table(page, 'Team').getByRole('combobox')).toHaveCount(0)
    await page.getByRole('button', { name: 'Leave project' }).click()
    const leave = dialog(page, 'Leave project?')
    await expect(leave).toContainText(project.name)
    await leave.getByRole('button', { name: 'Leave' }).click()
    await expect(snackbar(page, `You left the project ${project.name}`)).toBeVisible()
    expect((await team()).map((member) => member.id)).not.toContain(runner.id)
  })

  test('a guest sees the resource pages read-only', async ({ page, adminApi }) => {
    const project = await newProject(adminApi, `Guest Resources ${uniqueId()}`)
    const deploy = await createKeyByApi(adminApi, project, 'deploy', generatePrivateKey())
    await adminApi.call(repositoryRoutes.create, {
      params: { project_id: project.id },
      body: {
        name: 'site',
        project_id: project.id,
        git_url: '/srv/site',
        ssh_key_id: deploy.id,
      },
    })
    await adminApi.call(inventoryRoutes.create, {
      params: { project_id: project.id },
      body: {
        name: 'production',
        project_id: project.id,
        type: 'file',
        inventory: 'inventories/production.ini',
        ssh_key_id: deploy.id,
      },
    })
    await adminApi.call(environmentRoutes.create, {
      params: { project_id: project.id },
      body: { name: 'staging', project_id: project.id, json: '{"region": "eu"}' },
    })
    const guest = await newUser(adminApi)
    await addMember(adminApi, project, guest, 'guest')
    await signIn(page, guest.username, guest.password)

    const pages = [
      ['keys', 'Key Store', 'deploy', 'New key'],
      ['repositories', 'Repositories', 'site', 'New repository'],
      ['inventory', 'Inventory', 'production', 'New inventory'],
      ['environment', 'Environment', 'staging', 'New environment'],
    ] as const
    for (const [path, title, name, newLabel] of pages) {
      await page.goto(`/project/${project.id}/${path}`)
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
      await expect(row(page, title, name)).toBeVisible()
      await expect(page.getByRole('button', { name: newLabel })).toHaveCount(0)
      await expect(table(page, title).getByRole('button')).toHaveCount(0)
      await expectAccessible(page)
    }

    await page.goto(`/project/${project.id}/team`)
    await expect(row(page, 'Team', guest.name)).toContainText('Guest')
    await expect(page.getByRole('button', { name: 'Add member' })).toHaveCount(0)
    await expect(table(page, 'Team').getByRole('button')).toHaveCount(0)

    await page.goto(`/project/${project.id}/activity`)
    await expect(table(page, 'Activity')).toContainText('Environment staging created')
  })
})
