import type { AccessKey, Integration } from '@flagman/contract'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { templateFixture } from '../../../testing/fixtures'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { IntegrationDialog } from './integration-dialog'

/** Dialogs with several fields take a few seconds to fill in on a busy machine. */
const SLOW_TEST_MS = 20_000

function key(id: number, name: string, type: string): AccessKey {
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

const resources = {
  'GET /api/project/3/templates': {
    body: [templateFixture({ id: 20, name: 'deploy' }), templateFixture({ id: 21, name: 'build' })],
  },
  'GET /api/project/3/keys': {
    body: [key(5, 'deploy key', 'ssh'), key(6, 'webhook secret', 'login_password')],
  },
}

const github: Integration = {
  id: 8,
  name: 'push',
  project_id: 3,
  template_id: 20,
  auth_method: 'github',
  auth_secret_id: 6,
  auth_header: '',
  searchable: false,
  task_params: { debug: true },
  debounce: false,
}

async function renderDialog(integration: Integration | null) {
  const onClose = vi.fn()
  renderWithProviders(
    <IntegrationDialog open projectId={3} integration={integration} onClose={onClose} />,
  )
  // The form shows once the templates and keys for its selects are there.
  await screen.findByLabelText(/^Name/, { selector: 'input' })
  return { onClose }
}

const field = (name: RegExp | string) =>
  screen.getByLabelText(name, { selector: 'input, textarea' })
const submit = (name: string) => userEvent.click(screen.getByRole('button', { name }))

async function choose(label: RegExp, option: string) {
  await userEvent.click(screen.getByRole('combobox', { name: label }))
  await userEvent.click(await screen.findByRole('option', { name: option }))
}

describe('IntegrationDialog', { timeout: SLOW_TEST_MS }, () => {
  it('requires a name and a template', async () => {
    const { requests } = mockFetch(resources)
    await renderDialog(null)
    await submit('Create')
    expect(await screen.findByText('Name is required')).toBeInTheDocument()
    expect(screen.getByText('Template is required')).toBeInTheDocument()
    expect(requests.filter((request) => request.method !== 'GET')).toHaveLength(0)
  })

  it('asks for a header and a secret key for token authentication', async () => {
    const { requests } = mockFetch({
      ...resources,
      'POST /api/project/3/integrations': { status: 201, body: { ...github, name: 'hook' } },
    })
    const { onClose } = await renderDialog(null)
    await userEvent.type(field(/^Name/), 'hook')
    await choose(/^Template/, 'build')
    expect(screen.queryByRole('combobox', { name: /^Secret key/ })).not.toBeInTheDocument()
    await choose(/^Authentication method/, 'Token')
    expect(
      screen.getByText(/header that carries the secret key's password as it is/),
    ).toBeInTheDocument()
    await submit('Create')
    expect(await screen.findByText('Auth header is required')).toBeInTheDocument()
    expect(screen.getByText('Secret key is required')).toBeInTheDocument()
    await userEvent.type(field(/^Auth header/), 'X-Token')
    await userEvent.click(screen.getByRole('combobox', { name: /^Secret key/ }))
    // Only login-with-password keys can hold the secret.
    expect(screen.queryByRole('option', { name: 'deploy key' })).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('option', { name: 'webhook secret' }))
    await userEvent.click(screen.getByRole('switch', { name: 'Debounce' }))
    await submit('Create')
    expect(await screen.findByText('Integration hook created')).toBeInTheDocument()
    expect(onClose).toHaveBeenCalled()
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({
      name: 'hook',
      project_id: 3,
      template_id: 21,
      auth_method: 'token',
      auth_header: 'X-Token',
      auth_secret_id: 6,
      searchable: false,
      debounce: true,
      task_params: null,
    })
  })

  it('edits an integration and keeps its task parameters as a JSON object', async () => {
    const { requests } = mockFetch({
      ...resources,
      'PUT /api/project/3/integrations/8': { status: 204 },
    })
    await renderDialog(github)
    expect(field(/^Name/)).toHaveValue('push')
    expect(screen.getByText(/X-Hub-Signature-256/)).toBeInTheDocument()
    const params = field(/^Task parameters/)
    expect(params).toHaveValue('{\n  "debug": true\n}')
    await userEvent.clear(params)
    await userEvent.type(params, 'nope')
    await submit('Save')
    expect(await screen.findByText('Task parameters must be valid JSON')).toBeInTheDocument()
    await userEvent.clear(params)
    await userEvent.click(params)
    await userEvent.paste('[1]')
    await submit('Save')
    expect(await screen.findByText('Task parameters must be a JSON object')).toBeInTheDocument()
    await userEvent.clear(params)
    await userEvent.click(screen.getByRole('switch', { name: 'Searchable' }))
    await submit('Save')
    expect(await screen.findByText('Integration push saved')).toBeInTheDocument()
    expect(requests.find((request) => request.method === 'PUT')?.body).toEqual({
      id: 8,
      name: 'push',
      project_id: 3,
      template_id: 20,
      auth_method: 'github',
      auth_header: '',
      auth_secret_id: 6,
      searchable: true,
      debounce: false,
      task_params: null,
    })
  })

  it('shows the server refusal and keeps what was typed', async () => {
    mockFetch({
      ...resources,
      'POST /api/project/3/integrations': {
        status: 400,
        body: { error: 'auth_secret_id must be a key of type login_password' },
      },
    })
    const { onClose } = await renderDialog(null)
    await userEvent.type(field(/^Name/), 'hook')
    await choose(/^Template/, 'deploy')
    await submit('Create')
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'auth_secret_id must be a key of type login_password',
    )
    expect(field(/^Name/)).toHaveValue('hook')
    expect(onClose).not.toHaveBeenCalled()
  })
})
