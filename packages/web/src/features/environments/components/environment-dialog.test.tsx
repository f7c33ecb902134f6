import type { Environment } from '@flagman/contract'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { EnvironmentDialog } from './environment-dialog'

/** Dialogs with several fields take a few seconds to fill in on a busy machine. */
const SLOW_TEST_MS = 20_000

const staging: Environment = {
  id: 4,
  name: 'staging',
  project_id: 3,
  password: null,
  json: '{"region": "eu"}',
  env: '{}',
  secrets: null,
}

const stagingWithSecrets: Environment = {
  ...staging,
  secrets: [
    { id: 11, name: 'TOKEN', type: 'env', secret: '', operation: '' },
    { id: 12, name: 'db_password', type: 'var', secret: '', operation: '' },
  ],
}

function renderDialog(environment: Environment | null = null) {
  const onClose = vi.fn()
  renderWithProviders(
    <EnvironmentDialog open projectId={3} environment={environment} onClose={onClose} />,
  )
  return { onClose }
}

const extraVariables = () => screen.getByRole('group', { name: 'Edit Extra variables as' })

async function typeJson(text: string) {
  const box = screen.getByRole('textbox', { name: 'Extra variables (JSON)' })
  await userEvent.clear(box)
  await userEvent.click(box)
  await userEvent.paste(text)
}

describe('EnvironmentDialog', { timeout: SLOW_TEST_MS }, () => {
  it('disables the table and shows the parse error for invalid JSON', async () => {
    const { requests } = mockFetch({})
    renderDialog()
    await userEvent.type(screen.getByLabelText(/^Name/, { selector: 'input' }), 'staging')
    await userEvent.click(within(extraVariables()).getByRole('button', { name: 'JSON' }))
    await typeJson('{"a": ')
    expect(screen.getByText(/^Invalid JSON: /)).toBeInTheDocument()
    expect(within(extraVariables()).getByRole('button', { name: 'Table' })).toBeDisabled()
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(requests).toHaveLength(0)
  })

  it('refuses to show nested values as a table', async () => {
    mockFetch({})
    renderDialog()
    await userEvent.click(within(extraVariables()).getByRole('button', { name: 'JSON' }))
    await typeJson('{"a": {"b": 1}}')
    await userEvent.click(within(extraVariables()).getByRole('button', { name: 'Table' }))
    expect(screen.getByText("Can't be displayed as table.")).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Extra variables (JSON)' })).toHaveValue(
      '{"a": {"b": 1}}',
    )
    await typeJson('{"a": "1", "b": 2}')
    await userEvent.click(within(extraVariables()).getByRole('button', { name: 'Table' }))
    expect(screen.getByRole('textbox', { name: 'Name of variable 2' })).toHaveValue('b')
    expect(screen.getByRole('textbox', { name: 'Value of variable 2' })).toHaveValue('2')
  })

  it('creates an environment with its variables and new secrets', async () => {
    const { requests } = mockFetch({
      'POST /api/project/3/environment': { status: 201, body: staging },
    })
    const { onClose } = renderDialog()
    await userEvent.type(screen.getByLabelText(/^Name/, { selector: 'input' }), 'staging')
    const section = screen.getByRole('region', { name: 'Extra variables' })
    await userEvent.click(within(section).getByRole('button', { name: 'Add variable' }))
    await userEvent.type(screen.getByRole('textbox', { name: 'Name of variable 1' }), 'region')
    await userEvent.type(screen.getByRole('textbox', { name: 'Value of variable 1' }), 'eu')
    await userEvent.click(screen.getByRole('button', { name: 'Add secret' }))
    await userEvent.type(screen.getByLabelText('Name of secret 1'), 'TOKEN')
    await userEvent.type(screen.getByLabelText('Value of secret 1'), 's3cret')
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(await screen.findByText('Environment staging created')).toBeInTheDocument()
    expect(onClose).toHaveBeenCalled()
    const body = requests[0]?.body as Record<string, unknown>
    expect(JSON.parse(body.json as string)).toEqual({ region: 'eu' })
    expect(body.secrets).toEqual([
      { operation: 'create', name: 'TOKEN', type: 'var', secret: 's3cret' },
    ])
  })

  it('offers the Docker images, shows the stored one and sends the choice', async () => {
    const withImage: Environment = { ...staging, image: 'dind-runner:v2.0.10' }
    const { requests } = mockFetch({
      'GET /api/project/3/environment/4': { body: { ...withImage, secrets: [] } },
      'PUT /api/project/3/environment/4': { status: 204 },
    })
    renderDialog(withImage)
    const image = await screen.findByRole('combobox', { name: 'Docker image' })
    expect(image).toHaveTextContent('dind-runner:v2.0.10')
    await userEvent.click(image)
    const options = screen.getAllByRole('option').map((option) => option.textContent)
    expect(options).toHaveLength(1 + 10 + 9)
    expect(options.slice(0, 3)).toEqual(['None', 'dind-runner:v2.0.10', 'dind-runner:v2.0.9'])
    expect(options).toContain('dind-runner:v2.0.0')
    expect(options).not.toContain('dind-runner:v2.0.1')
    expect(options).toContain('nodejs-runner:v2.0.3')
    expect(options).not.toContain('nodejs-runner:v2.0.2')
    await userEvent.click(screen.getByRole('option', { name: 'nodejs-runner:v2.0.3' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Environment staging saved')).toBeInTheDocument()
    const put = requests.find((request) => request.method === 'PUT')?.body
    expect(put).toMatchObject({ image: 'nodejs-runner:v2.0.3' })
  })

  it('sends only the secret operations of the edit', async () => {
    const { requests } = mockFetch({
      'GET /api/project/3/environment/4': { body: stagingWithSecrets },
      'PUT /api/project/3/environment/4': { status: 204 },
    })
    renderDialog(staging)
    const token = await screen.findByLabelText('Value of secret 1')
    // Stored values are never shown.
    expect(token).toHaveValue('')
    expect(screen.getByLabelText('Name of secret 1')).toHaveValue('TOKEN')
    await userEvent.type(token, 'rotated')
    await userEvent.click(screen.getByRole('button', { name: 'Remove secret 2' }))
    await userEvent.click(screen.getByRole('button', { name: 'Add secret' }))
    await userEvent.type(screen.getByLabelText('Name of secret 2'), 'NEW')
    await userEvent.type(screen.getByLabelText('Value of secret 2'), 'fresh')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Environment staging saved')).toBeInTheDocument()
    const put = requests.find((request) => request.method === 'PUT')
    expect(put?.body).toMatchObject({ id: 4, name: 'staging', json: '{"region": "eu"}' })
    expect((put?.body as { secrets: unknown }).secrets).toEqual([
      { operation: 'delete', id: 12 },
      { operation: 'update', id: 11, name: 'TOKEN', type: 'env', secret: 'rotated' },
      { operation: 'create', name: 'NEW', type: 'var', secret: 'fresh' },
    ])
  })

  it('requires the name and value of a new secret', async () => {
    const { requests } = mockFetch({})
    renderDialog()
    await userEvent.type(screen.getByLabelText(/^Name/, { selector: 'input' }), 'staging')
    await userEvent.click(screen.getByRole('button', { name: 'Add secret' }))
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(await screen.findByText('Value is required')).toBeInTheDocument()
    expect(screen.getByText('Name is required')).toBeInTheDocument()
    expect(requests).toHaveLength(0)
  })

  it('sends a typed password on create', async () => {
    const { requests } = mockFetch({
      'POST /api/project/3/environment': { status: 201, body: staging },
    })
    renderDialog()
    await userEvent.type(screen.getByLabelText(/^Name/, { selector: 'input' }), 'staging')
    expect(screen.queryByRole('checkbox', { name: 'Remove the stored password' })).toBeNull()
    await userEvent.type(screen.getByLabelText('Password'), 'vault-pw')
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(await screen.findByText('Environment staging created')).toBeInTheDocument()
    expect(requests[0]?.body).toMatchObject({ password: 'vault-pw' })
    expect(requests[0]?.body).not.toHaveProperty('clear_password')
  })

  it.each([
    ['keeps a stored password it never shows', null, {}],
    ['replaces a stored password', 'new-pw', { password: 'new-pw' }],
    ['removes a stored password', 'clear', { clear_password: true }],
  ] as const)('%s', async (_label, action, expected) => {
    const withPassword: Environment = { ...staging, password: '' }
    const { requests } = mockFetch({
      'GET /api/project/3/environment/4': { body: { ...withPassword, secrets: [] } },
      'PUT /api/project/3/environment/4': { status: 204 },
    })
    renderDialog(withPassword)
    const password = await screen.findByLabelText('Password')
    expect(password).toHaveValue('')
    expect(password).toHaveAttribute('placeholder', 'Stored; type to replace')
    if (action === 'clear') {
      await userEvent.click(screen.getByRole('checkbox', { name: 'Remove the stored password' }))
      expect(password).toBeDisabled()
    } else if (action !== null) {
      await userEvent.type(password, action)
    }
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Environment staging saved')).toBeInTheDocument()
    const put = requests.find((request) => request.method === 'PUT')?.body as Record<
      string,
      unknown
    >
    const { password: sent, clear_password: cleared } = put
    expect({
      ...(sent === undefined ? {} : { password: sent }),
      ...(cleared === undefined ? {} : { clear_password: cleared }),
    }).toEqual(expected)
  })
})
