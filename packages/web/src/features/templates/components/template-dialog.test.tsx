import type { AccessKey, App, Inventory, Repository, Schedule, Template } from '@flagman/contract'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { templateFixture } from '../../../testing/fixtures'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { TemplateDialog, type TemplateDialogMode } from './template-dialog'

/** Dialogs with several fields take a few seconds to fill in on a busy machine. */
const SLOW_TEST_MS = 30_000

function app(id: string, title: string): App {
  return {
    id,
    title,
    active: true,
    priority: 0,
    icon: id,
    color: '',
    dark_color: '',
    path: '',
    args: null,
  }
}

const apps = [app('ansible', 'Ansible'), app('terraform', 'Terraform'), app('bash', 'Bash')]

const repository: Repository = {
  id: 7,
  name: 'site',
  project_id: 3,
  git_url: 'https://example.com/site.git',
  git_branch: 'main',
  ssh_key_id: 1,
}

const inventory: Inventory = {
  id: 8,
  name: 'hosts',
  project_id: 3,
  type: 'static',
  inventory: 'localhost',
  ssh_key_id: 1,
  become_key_id: null,
  repository_id: null,
  template_id: null,
}

const vaultKey: AccessKey = {
  id: 9,
  name: 'vault-pass',
  type: 'login_password',
  project_id: 3,
  login_password: { login: '', password: '' },
  ssh: { login: '', passphrase: '', private_key: '' },
  string: '',
  override_secret: false,
}

function lists(extra: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    'GET /api/apps': { body: apps },
    'GET /api/project/3/inventory': { body: [inventory] },
    'GET /api/project/3/repositories': { body: [repository] },
    'GET /api/project/3/environment': { body: [] },
    'GET /api/project/3/keys': { body: [vaultKey] },
    'GET /api/project/3/views': { body: [] },
    'GET /api/project/3/templates': { body: [] },
    ...extra,
  })
}

function bashTemplate(overrides: Partial<Template> = {}): Template {
  return templateFixture(overrides)
}

const commitCheck: Schedule = {
  id: 5,
  project_id: 3,
  template_id: 20,
  name: 'deploy',
  cron_format: '*/10 * * * *',
  active: true,
  repository_id: 7,
  timezone: '',
  missed_run_policy: 'skip',
  last_run: null,
  last_miss: null,
}

function renderDialog(mode: TemplateDialogMode) {
  const onClose = vi.fn()
  renderWithProviders(<TemplateDialog open projectId={3} mode={mode} onClose={onClose} />)
  return { onClose }
}

const field = (name: RegExp | string) =>
  screen.getByLabelText(name, { selector: 'input, textarea' })

async function choose(label: RegExp, option: string) {
  await userEvent.click(screen.getByRole('combobox', { name: label }))
  await userEvent.click(await screen.findByRole('option', { name: option }))
}

describe('TemplateDialog', { timeout: SLOW_TEST_MS }, () => {
  it('shows and requires the Ansible fields', async () => {
    const { requests } = lists()
    renderDialog({ kind: 'new', app: 'ansible' })
    expect(await screen.findByRole('dialog', { name: 'New Ansible template' })).toBeVisible()
    expect(field(/^Playbook filename/)).toBeRequired()
    expect(screen.getByRole('combobox', { name: /^Inventory/ })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Add vault' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(await screen.findByText('Name is required')).toBeInTheDocument()
    expect(screen.getByText('Playbook filename is required')).toBeInTheDocument()
    expect(screen.getByText('Inventory is required')).toBeInTheDocument()
    expect(screen.getByText('Repository is required')).toBeInTheDocument()
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(0)
  })

  it('makes the Terraform subdirectory optional and hides inventory and vaults', async () => {
    const { requests } = lists({
      'POST /api/project/3/templates': (request) => ({
        status: 201,
        body: { ...(request.body as object), id: 11 },
      }),
    })
    renderDialog({ kind: 'new', app: 'terraform' })
    expect(await screen.findByRole('dialog', { name: 'New Terraform template' })).toBeVisible()
    expect(field(/^Subdirectory path/)).not.toBeRequired()
    expect(screen.queryByRole('combobox', { name: /^Inventory/ })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Add vault' })).not.toBeInTheDocument()
    await userEvent.type(field(/^Name/), 'infra')
    await choose(/^Repository/, 'site')
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(await screen.findByText('Template infra created')).toBeInTheDocument()
    const post = requests.find((request) => request.method === 'POST')
    expect(post?.body).toMatchObject({
      app: 'terraform',
      name: 'infra',
      playbook: '',
      repository_id: 7,
      inventory_id: null,
      vaults: [],
      arguments: null,
    })
  })

  it('asks Bash for a script and no inventory, and saves the CLI args as JSON', async () => {
    const { requests } = lists({
      'POST /api/project/3/templates': (request) => ({
        status: 201,
        body: { ...(request.body as object), id: 12 },
      }),
    })
    renderDialog({ kind: 'new', app: 'bash' })
    expect(await screen.findByRole('dialog', { name: 'New Bash template' })).toBeVisible()
    expect(field(/^Script filename/)).toBeRequired()
    expect(screen.queryByRole('combobox', { name: /^Inventory/ })).not.toBeInTheDocument()
    await userEvent.type(field(/^Name/), 'deploy')
    await userEvent.type(field(/^Script filename/), 'deploy.sh')
    await choose(/^Repository/, 'site')
    await userEvent.click(screen.getByRole('button', { name: 'Add argument' }))
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(await screen.findByText('Argument can not be empty')).toBeInTheDocument()
    await userEvent.type(field('Argument 1'), '--verbose')
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(await screen.findByText('Template deploy created')).toBeInTheDocument()
    const post = requests.find((request) => request.method === 'POST')
    expect(post?.body).toMatchObject({
      app: 'bash',
      playbook: 'deploy.sh',
      arguments: '["--verbose"]',
      runner_tag: null,
    })
  })

  it('sends the runner tag, checked like the server does, and no tag as null', async () => {
    const { requests } = lists({
      'POST /api/project/3/templates': (request) => ({
        status: 201,
        body: { ...(request.body as object), id: 15 },
      }),
    })
    renderDialog({ kind: 'new', app: 'bash' })
    await screen.findByRole('dialog', { name: 'New Bash template' })
    expect(screen.getByText(/run only on runners carrying this tag/)).toBeInTheDocument()
    await userEvent.type(field(/^Name/), 'deploy')
    await userEvent.type(field(/^Script filename/), 'deploy.sh')
    await choose(/^Repository/, 'site')
    await userEvent.type(field('Runner tag'), 'gpu box')
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(await screen.findByText('Use only letters, digits, _, . and -')).toBeInTheDocument()
    expect(requests.some((request) => request.method === 'POST')).toBe(false)
    await userEvent.clear(field('Runner tag'))
    await userEvent.type(field('Runner tag'), 'gpu')
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(await screen.findByText('Template deploy created')).toBeInTheDocument()
    expect(requests.find((request) => request.method === 'POST')?.body).toMatchObject({
      runner_tag: 'gpu',
    })
  })

  it('requires a start version for a build template', async () => {
    lists()
    renderDialog({ kind: 'new', app: 'bash' })
    await screen.findByRole('dialog', { name: 'New Bash template' })
    await choose(/^Type/, 'Build')
    expect(field(/^Start version/)).toBeRequired()
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(
      await screen.findByText('Start version is required for a build template'),
    ).toBeInTheDocument()
  })

  it('checks the values of an enumeration survey variable', async () => {
    lists()
    renderDialog({ kind: 'new', app: 'bash' })
    await screen.findByRole('dialog', { name: 'New Bash template' })
    await userEvent.click(screen.getByRole('button', { name: 'Add variable' }))
    const variable = await screen.findByRole('dialog', { name: 'New survey variable' })
    const inside = within(variable)
    await userEvent.type(inside.getByLabelText(/^Name/, { selector: 'input' }), 'region')
    await userEvent.type(inside.getByLabelText(/^Title/, { selector: 'input' }), 'Region')
    await userEvent.click(inside.getByRole('combobox', { name: /^Type/ }))
    await userEvent.click(await screen.findByRole('option', { name: 'Enumeration' }))
    await userEvent.click(inside.getByRole('button', { name: 'Save' }))
    expect(await inside.findByText('Enumeration must have values.')).toBeInTheDocument()

    await userEvent.click(inside.getByRole('button', { name: 'Add value' }))
    await userEvent.click(inside.getByRole('button', { name: 'Save' }))
    expect(await inside.findByText('Value name cannot be empty.')).toBeInTheDocument()

    const names = () => inside.getAllByLabelText('Value name', { selector: 'input' })
    await userEvent.type(names()[0] as HTMLElement, 'eu')
    await userEvent.click(inside.getByRole('button', { name: 'Add value' }))
    await userEvent.type(names()[1] as HTMLElement, 'eu')
    await userEvent.click(inside.getByRole('button', { name: 'Save' }))
    expect(
      await inside.findByText('Enumeration values must have unique names.'),
    ).toBeInTheDocument()

    await userEvent.clear(names()[1] as HTMLElement)
    await userEvent.type(names()[1] as HTMLElement, 'us')
    await userEvent.click(inside.getByRole('button', { name: 'Save' }))
    expect(await screen.findByRole('button', { name: 'Edit variable region' })).toBeInTheDocument()
    expect(screen.queryByRole('dialog', { name: 'New survey variable' })).not.toBeInTheDocument()
  })

  it('requires a vault client script to end with -client', async () => {
    const { requests } = lists({
      'POST /api/project/3/templates': (request) => ({
        status: 201,
        body: { ...(request.body as object), id: 13 },
      }),
    })
    renderDialog({ kind: 'new', app: 'ansible' })
    await screen.findByRole('dialog', { name: 'New Ansible template' })
    await userEvent.type(field(/^Name/), 'site')
    await userEvent.type(field(/^Playbook filename/), 'site.yml')
    await choose(/^Inventory/, 'hosts')
    await choose(/^Repository/, 'site')
    await userEvent.click(screen.getByRole('button', { name: 'Add vault' }))
    await choose(/^Vault type/, 'Client script')
    await userEvent.type(field(/^Client script/), 'vault.py')
    expect(
      screen.getByText('The script name must end with -client (an extension may follow)'),
    ).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(field(/^Client script/)).toHaveAccessibleDescription(
      'The script name must end with -client (an extension may follow)',
    )
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(0)

    await userEvent.clear(field(/^Client script/))
    await userEvent.type(field(/^Client script/), 'vault-client.py')
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(await screen.findByText('Template site created')).toBeInTheDocument()
    const post = requests.find((request) => request.method === 'POST')
    expect(post?.body).toMatchObject({
      vaults: [{ name: null, type: 'script', script: 'vault-client.py', vault_key_id: null }],
    })
  })

  it('requires a repository for the commit check and creates the check with the template', async () => {
    const { requests } = lists({
      'POST /api/project/3/schedules/validate': { status: 200 },
      'POST /api/project/3/templates': (request) => ({
        status: 201,
        body: { ...bashTemplate(), ...(request.body as object), id: 14 },
      }),
      'POST /api/project/3/schedules': (request) => ({
        status: 201,
        body: { ...(request.body as object), id: 30 },
      }),
    })
    renderDialog({ kind: 'new', app: 'bash' })
    await screen.findByRole('dialog', { name: 'New Bash template' })
    await userEvent.type(field(/^Name/), 'deploy')
    await userEvent.type(field(/^Script filename/), 'deploy.sh')
    const toggle = screen.getByRole('switch', { name: 'Check the repository for new commits' })
    expect(toggle).not.toBeChecked()
    expect(screen.queryByRole('combobox', { name: /^Check interval/ })).not.toBeInTheDocument()
    await userEvent.click(toggle)
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(
      await screen.findByText('A repository is required to check for new commits'),
    ).toBeInTheDocument()
    // Without the check, the repository is only what the app itself asks for.
    await userEvent.click(toggle)
    expect(await screen.findByText('Repository is required')).toBeInTheDocument()
    expect(
      screen.queryByText('A repository is required to check for new commits'),
    ).not.toBeInTheDocument()
    await userEvent.click(toggle)
    expect(screen.getByRole('combobox', { name: /^Check interval/ })).toHaveTextContent('1 minute')
    await choose(/^Check interval/, '1 hour')
    await choose(/^Repository/, 'site')
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(await screen.findByText('Template deploy created')).toBeInTheDocument()
    const writes = requests.filter((request) => request.method !== 'GET')
    expect(writes.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /api/project/3/schedules/validate',
      'POST /api/project/3/templates',
      'POST /api/project/3/schedules',
    ])
    expect(writes[0]?.body).toEqual({ cron_format: '0 * * * *' })
    expect(writes[2]?.body).toEqual({
      name: 'deploy',
      template_id: 14,
      cron_format: '0 * * * *',
      repository_id: 7,
      active: true,
      project_id: 3,
    })
  })

  it('shows the commit check of an edited template and saves its new interval', async () => {
    const { requests } = lists({
      'GET /api/project/3/templates/20/schedules': { body: [commitCheck] },
      'POST /api/project/3/schedules/validate': { status: 200 },
      'PUT /api/project/3/templates/20': { status: 204 },
      'PUT /api/project/3/schedules/5': { status: 204 },
    })
    renderDialog({
      kind: 'edit',
      template: bashTemplate({ task_params: { limit: ['web'] }, inventory_id: 41, autorun: true }),
    })
    await screen.findByRole('dialog', { name: 'Edit template' })
    expect(
      await screen.findByRole('switch', { name: 'Check the repository for new commits' }),
    ).toBeChecked()
    expect(screen.getByRole('combobox', { name: /^Check interval/ })).toHaveTextContent(
      '10 minutes',
    )
    const branch = screen.getByRole('checkbox', { name: 'Allow branch override in task' })
    expect(branch).not.toBeChecked()
    await userEvent.click(branch)
    await choose(/^Check interval/, '24 hours')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Template deploy saved')).toBeInTheDocument()
    const put = requests.find((request) => request.path === '/api/project/3/templates/20')
    // Other task parameters, and fields a Bash template does not show, stay as they are.
    expect(put?.body).toMatchObject({
      task_params: { limit: ['web'], allow_override_branch_in_task: true },
      inventory_id: 41,
      autorun: true,
    })
    const schedule = requests.find((request) => request.path === '/api/project/3/schedules/5')
    expect(schedule?.method).toBe('PUT')
    expect(schedule?.body).toEqual({
      id: 5,
      name: 'deploy',
      template_id: 20,
      cron_format: '0 0 * * *',
      repository_id: 7,
      active: true,
      project_id: 3,
    })
  })

  it('shows a custom interval, and removes the commit check when the toggle is cleared', async () => {
    const custom = { ...commitCheck, cron_format: '15 3 * * 1' }
    const { requests } = lists({
      'GET /api/project/3/templates/20/schedules': { body: [custom] },
      'PUT /api/project/3/templates/20': { status: 204 },
      'DELETE /api/project/3/schedules/5': { status: 204 },
    })
    renderDialog({
      kind: 'edit',
      template: bashTemplate({ task_params: { allow_override_branch_in_task: true } }),
    })
    await screen.findByRole('dialog', { name: 'Edit template' })
    expect(await screen.findByRole('combobox', { name: /^Check interval/ })).toHaveTextContent(
      'Custom: 15 3 * * 1',
    )
    expect(screen.getByRole('checkbox', { name: 'Allow branch override in task' })).toBeChecked()
    await userEvent.click(screen.getByRole('checkbox', { name: 'Allow branch override in task' }))
    await userEvent.click(
      screen.getByRole('switch', { name: 'Check the repository for new commits' }),
    )
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Template deploy saved')).toBeInTheDocument()
    const writes = requests.filter((request) => request.method !== 'GET')
    expect(writes.map((request) => `${request.method} ${request.path}`)).toEqual([
      'PUT /api/project/3/templates/20',
      'DELETE /api/project/3/schedules/5',
    ])
    expect(writes[0]?.body).toMatchObject({ task_params: null })
  })

  it('offers the workspaces of an edited Terraform template as its default workspace', async () => {
    const workspace = (id: number, name: string, templateId: number | null): Inventory => ({
      ...inventory,
      id,
      name,
      type: 'terraform-workspace',
      inventory: name,
      template_id: templateId,
    })
    const { requests } = lists({
      // The same answer for the project's inventories and the template's workspaces.
      'GET /api/project/3/inventory': {
        body: [inventory, workspace(41, 'default', 20), workspace(42, 'free', null)],
      },
      'GET /api/project/3/templates/20/schedules': { body: [] },
      'PUT /api/project/3/templates/20': { status: 204 },
    })
    renderDialog({
      kind: 'edit',
      template: bashTemplate({ app: 'terraform', playbook: '', inventory_id: 41 }),
    })
    await screen.findByRole('dialog', { name: 'Edit template' })
    const select = await screen.findByRole('combobox', { name: /^Default workspace/ })
    expect(select).toHaveTextContent('default')
    await userEvent.click(select)
    const options = await screen.findAllByRole('option')
    expect(options.map((option) => option.textContent)).toEqual(['None', 'default', 'free'])
    await userEvent.click(screen.getByRole('option', { name: 'free' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Template deploy saved')).toBeInTheDocument()
    const put = requests.find((request) => request.method === 'PUT')
    expect(put?.body).toMatchObject({ app: 'terraform', inventory_id: 42 })
  })

  it('stores the state in the HTTP backend under a checked backend file name', async () => {
    const { requests } = lists({
      'GET /api/project/3/templates/20/schedules': { body: [] },
      'PUT /api/project/3/templates/20': { status: 204 },
    })
    renderDialog({
      kind: 'edit',
      template: bashTemplate({ app: 'tofu', playbook: '', task_params: { plan: true } }),
    })
    await screen.findByRole('dialog', { name: 'Edit template' })
    const toggle = await screen.findByRole('switch', {
      name: "Store state in the workspace's HTTP backend",
    })
    expect(screen.queryByRole('textbox', { name: 'Backend file name' })).not.toBeInTheDocument()
    await userEvent.click(toggle)
    const name = screen.getByRole('textbox', { name: 'Backend file name' })
    expect(name).toHaveAttribute('placeholder', 'backend.tf')
    await userEvent.type(name, '../state.tf')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(
      await screen.findByText(
        'Use a plain file name ending in .tf or .tf.json, for example backend.tf',
      ),
    ).toBeInTheDocument()
    expect(requests.filter((request) => request.method === 'PUT')).toHaveLength(0)
    await userEvent.clear(name)
    await userEvent.type(name, 'http_backend.tf')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Template deploy saved')).toBeInTheDocument()
    const put = requests.find((request) => request.method === 'PUT')
    // The other task parameters are kept.
    expect((put?.body as { task_params: unknown }).task_params).toEqual({
      plan: true,
      override_backend: true,
      backend_filename: 'http_backend.tf',
    })
  })

  it('clears the backend override when it is switched off', async () => {
    const { requests } = lists({
      'GET /api/project/3/templates/20/schedules': { body: [] },
      'PUT /api/project/3/templates/20': { status: 204 },
    })
    renderDialog({
      kind: 'edit',
      template: bashTemplate({
        app: 'terraform',
        playbook: '',
        task_params: { override_backend: true, backend_filename: 'state.tf', plan: false },
      }),
    })
    await screen.findByRole('dialog', { name: 'Edit template' })
    expect(await screen.findByRole('textbox', { name: 'Backend file name' })).toHaveValue(
      'state.tf',
    )
    await userEvent.click(
      screen.getByRole('switch', { name: "Store state in the workspace's HTTP backend" }),
    )
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Template deploy saved')).toBeInTheDocument()
    const put = requests.find((request) => request.method === 'PUT')
    expect((put?.body as { task_params: unknown }).task_params).toEqual({ plan: false })
  })

  it('does not offer the backend override to other apps', async () => {
    lists()
    renderDialog({ kind: 'new', app: 'bash' })
    await screen.findByRole('dialog', { name: 'New Bash template' })
    expect(
      screen.queryByRole('switch', { name: "Store state in the workspace's HTTP backend" }),
    ).not.toBeInTheDocument()
  })

  it('copies a Terraform template without the workspace of the original', async () => {
    const { requests } = lists({
      'GET /api/project/3/templates/20/schedules': { body: [] },
      'POST /api/project/3/templates': (request) => ({
        status: 201,
        body: { ...bashTemplate(), ...(request.body as object), id: 21 },
      }),
    })
    renderDialog({
      kind: 'copy',
      template: bashTemplate({ app: 'terraform', playbook: 'infra', inventory_id: 41 }),
    })
    await screen.findByRole('dialog', { name: 'Copy template' })
    expect(await screen.findByDisplayValue('deploy (copy)')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(await screen.findByText('Template deploy (copy) created')).toBeInTheDocument()
    const post = requests.find((request) => request.method === 'POST')
    expect(post?.body).toMatchObject({
      app: 'terraform',
      name: 'deploy (copy)',
      playbook: 'infra',
      repository_id: 7,
      inventory_id: null,
    })
  })

  it('shows a server refusal in the red alert', async () => {
    lists({
      'POST /api/project/3/templates': { status: 400, body: { error: 'template name taken' } },
    })
    const { onClose } = renderDialog({ kind: 'new', app: 'bash' })
    await screen.findByRole('dialog', { name: 'New Bash template' })
    await userEvent.type(field(/^Name/), 'deploy')
    await userEvent.type(field(/^Script filename/), 'deploy.sh')
    await choose(/^Repository/, 'site')
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('template name taken')
    expect(onClose).not.toHaveBeenCalled()
  })
})
