import type {
  AccessKey,
  TerraformAlias,
  TerraformLockStatus,
  TerraformState,
  TerraformStateDiff,
} from '@flagman/contract'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { WorkspaceBackend } from './workspace-backend'

const base = '/api/project/3/inventory/8/terraform'

function key(id: number, name: string, type: AccessKey['type']): AccessKey {
  return {
    id,
    name,
    type,
    project_id: 3,
    login_password: { login: '', password: '' },
    ssh: { login: '', passphrase: '', private_key: '' },
    string: '',
    override_secret: false,
  }
}

const keys = [key(5, 'backend login', 'login_password'), key(6, 'deploy ssh', 'ssh')]

const alias: TerraformAlias = {
  id: 1,
  url: 'https://flagman.example/api/terraform/abcdef',
  auth_key_id: 5,
}

function version(id: number, overrides: Partial<TerraformState> = {}): TerraformState {
  return {
    id,
    created: '2026-11-20T10:00:00Z',
    task_id: null,
    status: null,
    project_id: 3,
    inventory_id: 8,
    source: 'alias',
    alias_id: 1,
    user_id: null,
    user_name: null,
    restored_from: null,
    serial: id,
    lineage: '0b6e4a8c-1f2d-4c3b-9a8e-7d6c5b4a3f21',
    size: 1536,
    ...overrides,
  }
}

const unlocked: TerraformLockStatus = {
  locked: false,
  info: null,
  since: null,
  task_id: null,
  alias_id: null,
}

const locked: TerraformLockStatus = {
  locked: true,
  info: { ID: 'lock-1', Operation: 'OperationTypeApply', Who: 'ann@laptop' },
  since: '2026-11-20T11:00:00Z',
  task_id: 42,
  alias_id: null,
}

const info = { premium_features: { project_runners: false, terraform_backend: true } }

function setup(routes: Parameters<typeof mockFetch>[0] = {}, canManage = true) {
  const mocked = mockFetch({
    'GET /api/info': { body: info },
    [`GET ${base}/aliases`]: { body: [alias] },
    [`GET ${base}/lock`]: { body: unlocked },
    [`GET ${base}/states`]: { body: [version(3), version(2), version(1)] },
    ...routes,
  })
  renderWithProviders(
    <WorkspaceBackend projectId={3} inventoryId={8} keys={keys} canManage={canManage} />,
  )
  return mocked
}

const region = (name: string) => screen.findByRole('region', { name })

describe('WorkspaceBackend', () => {
  it('lists aliases with their key', async () => {
    setup()
    const aliases = await region('HTTP backend')
    expect(await within(aliases).findByText(alias.url)).toBeInTheDocument()
    expect(within(aliases).getByText('Key: backend login')).toBeInTheDocument()
  })

  it('shows the empty texts', async () => {
    setup({ [`GET ${base}/aliases`]: { body: [] }, [`GET ${base}/states`]: { body: [] } })
    expect(await screen.findByText('There is no aliases.')).toBeInTheDocument()
    expect(await screen.findByText('No state available.')).toBeInTheDocument()
    expect(await screen.findByText('Unlocked')).toBeInTheDocument()
  })

  it('creates an alias with a login-with-password key, which is required', async () => {
    const { requests } = setup({
      [`POST ${base}/aliases`]: { status: 201, body: { ...alias, id: 2 } },
    })
    await userEvent.click(await screen.findByRole('button', { name: 'New alias' }))
    const dialog = await screen.findByRole('dialog', { name: 'New alias' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }))
    expect(await within(dialog).findByText('Key is required')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('combobox', { name: /^Key/ }))
    const options = await screen.findAllByRole('option')
    // Only keys with a login and a password can guard an alias.
    expect(options.map((option) => option.textContent)).toEqual(['backend login'])
    await userEvent.click(options[0]!)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }))
    expect(await screen.findByText('Alias created')).toBeInTheDocument()
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ auth_key_id: 5 })
  })

  it('copies the URL and the backend configuration, and says why copying failed', async () => {
    setup()
    const user = userEvent.setup()
    const writeText = vi.spyOn(navigator.clipboard, 'writeText')
    await user.click(await screen.findByRole('button', { name: `Copy URL ${alias.url}` }))
    expect(writeText).toHaveBeenCalledWith(alias.url)
    expect(await screen.findByText('The URL has been copied to the clipboard.')).toBeVisible()
    await user.click(
      screen.getByRole('button', { name: `Copy backend configuration for ${alias.url}` }),
    )
    expect(writeText).toHaveBeenLastCalledWith(expect.stringContaining('lock_method    = "LOCK"'))
    writeText.mockRejectedValue(new Error('Permission denied'))
    await user.click(screen.getByRole('button', { name: `Copy URL ${alias.url}` }))
    expect(
      await screen.findByText("Can't copy to clipboard: Permission denied"),
    ).toBeInTheDocument()
  })

  it('deletes an alias after confirmation', async () => {
    const { requests } = setup({ [`DELETE ${base}/aliases/1`]: { status: 204 } })
    await userEvent.click(await screen.findByRole('button', { name: `Delete alias ${alias.url}` }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete alias?' })
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('Alias deleted')).toBeInTheDocument()
    expect(requests.some((r) => r.method === 'DELETE' && r.path === `${base}/aliases/1`)).toBe(true)
  })

  it('changes the key of an alias', async () => {
    const { requests } = setup({ [`PUT ${base}/aliases/1`]: { status: 204 } })
    await userEvent.click(
      await screen.findByRole('button', { name: `Edit the key of ${alias.url}` }),
    )
    const dialog = await screen.findByRole('dialog', { name: 'Edit alias' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Alias saved')).toBeInTheDocument()
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({ auth_key_id: 5 })
  })

  it('shows who holds the lock and force-unlocks it after confirmation', async () => {
    let lock = locked
    const { requests } = setup({
      [`GET ${base}/lock`]: () => ({ body: lock }),
      [`DELETE ${base}/lock`]: () => {
        lock = unlocked
        return { status: 204 }
      },
    })
    const section = await region('State lock')
    expect(await within(section).findByText('Locked')).toBeInTheDocument()
    expect(within(section).getByText(/Held by ann@laptop/)).toBeInTheDocument()
    expect(within(section).getByText('Operation: OperationTypeApply')).toBeInTheDocument()
    expect(within(section).getByRole('link', { name: 'Open the log of task #42' })).toHaveAttribute(
      'href',
      '/?t=42',
    )
    await userEvent.click(within(section).getByRole('button', { name: 'Force unlock' }))
    const dialog = await screen.findByRole('dialog', { name: 'Force unlock?' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Force unlock' }))
    expect(await screen.findByText('The state has been unlocked')).toBeInTheDocument()
    expect(await within(section).findByText('Unlocked')).toBeInTheDocument()
    expect(requests.some((r) => r.method === 'DELETE' && r.path === `${base}/lock`)).toBe(true)
  })

  it('hides the manager actions from others', async () => {
    setup({ [`GET ${base}/lock`]: { body: locked } }, false)
    await screen.findByText(alias.url)
    await screen.findByText('Locked')
    expect(screen.queryByRole('button', { name: 'New alias' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Force unlock' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Restore version #3' })).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: `Copy URL ${alias.url}` })).toBeInTheDocument()
  })

  it('lists versions with their origin and shows a version when expanded', async () => {
    setup({
      [`GET ${base}/states`]: {
        body: [
          version(3, {
            source: 'restore',
            alias_id: null,
            user_name: 'Ann',
            restored_from: 1,
          }),
          version(2, { source: 'task', task_id: 17, alias_id: null, status: 'success' }),
          version(1),
        ],
      },
      [`GET ${base}/states/3`]: {
        body: { ...version(3), state: '{"version":4,"serial":3,"outputs":{}}' },
      },
      [`GET ${base}/states/2`]: { status: 404, body: { error: 'State not found' } },
    })
    const table = await screen.findByRole('table', { name: 'States' })
    const rows = within(table).getAllByRole('row')
    expect(rows[1]).toHaveTextContent('#3')
    expect(rows[1]).toHaveTextContent('restored by Ann from #1')
    expect(rows[1]).toHaveTextContent('0b6e4a8c…')
    expect(rows[1]).toHaveTextContent('1.5 kB')
    expect(within(rows[2]!).getByRole('link', { name: 'Open the log of task #17' })).toBeVisible()
    expect(rows[3]).toHaveTextContent('alias')

    await userEvent.click(screen.getByRole('button', { name: 'Show the content of version #3' }))
    const content = await screen.findByRole('region', { name: 'Content of version #3' })
    expect(content.textContent).toBe('{\n  "version": 4,\n  "serial": 3,\n  "outputs": {}\n}')
    await userEvent.click(screen.getByRole('button', { name: 'Show the content of version #2' }))
    expect(await screen.findByText('No state available.')).toBeInTheDocument()
  })

  it('asks for more versions when a full page came back', async () => {
    const page = Array.from({ length: 20 }, (_, index) => version(40 - index))
    let asked = 0
    setup({
      [`GET ${base}/states`]: () => {
        asked += 1
        return { body: asked > 1 ? [...page, version(20)] : page }
      },
    })
    await userEvent.click(await screen.findByRole('button', { name: 'Show more' }))
    expect(await screen.findByText('#20')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument()
    const urls = vi.mocked(fetch).mock.calls.map(([url]) => String(url))
    expect(urls).toContain(`${base}/states?limit=20`)
    expect(urls).toContain(`${base}/states?limit=40`)
  })

  it('restores a version after confirmation', async () => {
    const { requests } = setup({
      [`POST ${base}/states/2/restore`]: { status: 201, body: version(4, { source: 'restore' }) },
    })
    await userEvent.click(await screen.findByRole('button', { name: 'Restore version #2' }))
    const dialog = await screen.findByRole('dialog', { name: 'Restore state version?' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Restore' }))
    expect(await screen.findByText('Version #2 restored as #4')).toBeInTheDocument()
    expect(requests.some((r) => r.method === 'POST')).toBe(true)
  })

  it('disables restore while locked', async () => {
    setup({ [`GET ${base}/lock`]: { body: locked } })
    await screen.findByText('Locked')
    expect(await screen.findByRole('button', { name: 'Restore version #2' })).toBeDisabled()
  })

  it('deletes a version after confirmation', async () => {
    const { requests } = setup({ [`DELETE ${base}/states/1`]: { status: 204 } })
    await userEvent.click(await screen.findByRole('button', { name: 'Delete version #1' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete state version?' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('Version #1 deleted')).toBeInTheDocument()
    expect(requests.some((r) => r.method === 'DELETE' && r.path === `${base}/states/1`)).toBe(true)
  })

  it('compares a version with the previous one', async () => {
    const diff: TerraformStateDiff = {
      from: version(2),
      to: version(3),
      added: [{ address: 'aws_instance.web[1]', type: 'aws_instance', attributes: [] }],
      changed: [
        { address: 'aws_instance.web[0]', type: 'aws_instance', attributes: ['ami', 'tags'] },
      ],
      removed: [{ address: 'aws_s3_bucket.logs', type: 'aws_s3_bucket', attributes: [] }],
      outputs: ['web_ip'],
    }
    setup({ [`GET ${base}/states/diff`]: { body: diff } })
    await userEvent.click(
      await screen.findByRole('button', { name: 'Compare version #3 with the previous one' }),
    )
    const dialog = await screen.findByRole('dialog', { name: 'Compare state versions' })
    expect(await within(dialog).findByRole('region', { name: 'Added (1)' })).toHaveTextContent(
      'aws_instance.web[1]',
    )
    expect(within(dialog).getByRole('region', { name: 'Changed (1)' })).toHaveTextContent(
      'Attributes: ami, tags',
    )
    expect(within(dialog).getByRole('region', { name: 'Removed (1)' })).toHaveTextContent(
      'aws_s3_bucket.logs',
    )
    expect(within(dialog).getByRole('region', { name: 'Outputs' })).toHaveTextContent('web_ip')
    const urls = vi.mocked(fetch).mock.calls.map(([url]) => String(url))
    expect(urls).toContain(`${base}/states/diff?from=2&to=3`)
    // The oldest version has nothing before it.
    expect(
      screen.getByRole('button', {
        name: 'Compare version #1 with the previous one',
        hidden: true,
      }),
    ).toBeDisabled()
  })

  it('says when two versions do not differ', async () => {
    setup({
      [`GET ${base}/states/diff`]: {
        body: {
          from: version(1),
          to: version(2),
          added: [],
          changed: [],
          removed: [],
          outputs: [],
        },
      },
    })
    await userEvent.click(
      await screen.findByRole('button', { name: 'Compare version #2 with the previous one' }),
    )
    expect(await screen.findByText('No differences.')).toBeInTheDocument()
  })

  it('shows the notice when the server has no HTTP backend', async () => {
    setup({ 'GET /api/info': { body: { premium_features: { terraform_backend: false } } } })
    expect(
      await screen.findByText('Terraform/OpenTofu HTTP backend available only in PRO version.'),
    ).toBeInTheDocument()
  })
})
