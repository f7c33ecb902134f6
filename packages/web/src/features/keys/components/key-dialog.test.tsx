import type { AccessKey } from '@flagman/contract'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch } from '../../../testing/mock-fetch'
import { renderWithProviders } from '../../../testing/render'
import { KeyDialog } from './key-dialog'

/** Dialogs with several fields take a few seconds to fill in on a busy machine. */
const SLOW_TEST_MS = 20_000

const deployKey: AccessKey = {
  id: 5,
  name: 'deploy',
  type: 'ssh',
  project_id: 3,
  login_password: { login: '', password: '' },
  ssh: { login: '', passphrase: '', private_key: '' },
  string: '',
  override_secret: false,
}

const PRIVATE_KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----\n'

function renderDialog(keyItem: AccessKey | null) {
  const onClose = vi.fn()
  renderWithProviders(<KeyDialog open projectId={3} keyItem={keyItem} onClose={onClose} />)
  return { onClose }
}

const field = (name: RegExp | string) =>
  screen.getByLabelText(name, { selector: 'input, textarea' })
const submit = (name: string) => userEvent.click(screen.getByRole('button', { name }))

async function chooseType(label: string) {
  await userEvent.click(screen.getByRole('combobox', { name: /Type/ }))
  await userEvent.click(await screen.findByRole('option', { name: label }))
}

describe('KeyDialog', { timeout: SLOW_TEST_MS }, () => {
  it('requires a name and a type', async () => {
    const { requests } = mockFetch({})
    renderDialog(null)
    await submit('Create')
    expect(await screen.findByText('Name is required')).toBeInTheDocument()
    expect(screen.getByText('Type is required')).toBeInTheDocument()
    expect(requests).toHaveLength(0)
  })

  it('requires the private key of a new SSH key and the password of a new login', async () => {
    const { requests } = mockFetch({})
    renderDialog(null)
    await userEvent.type(field(/^Name/), 'deploy')
    await chooseType('SSH key')
    expect(field(/^Private key/)).toBeRequired()
    await submit('Create')
    expect(await screen.findByText('Private key is required')).toBeInTheDocument()
    await chooseType('Login with password')
    expect(field(/^Password/)).toBeRequired()
    await submit('Create')
    expect(await screen.findByText('Password is required')).toBeInTheDocument()
    expect(requests).toHaveLength(0)
  })

  it('creates an SSH key with its secret', async () => {
    const { requests } = mockFetch({
      'POST /api/project/3/keys': { status: 201, body: { ...deployKey, id: 9 } },
    })
    const { onClose } = renderDialog(null)
    await userEvent.type(field(/^Name/), ' deploy ')
    await chooseType('SSH key')
    await userEvent.type(field(/^Login/), 'ubuntu')
    await userEvent.click(field(/^Private key/))
    await userEvent.paste(PRIVATE_KEY)
    await submit('Create')
    expect(await screen.findByText('Key deploy created')).toBeInTheDocument()
    expect(onClose).toHaveBeenCalled()
    expect(requests[0]?.body).toEqual({
      name: 'deploy',
      type: 'ssh',
      project_id: 3,
      ssh: { login: 'ubuntu', passphrase: '', private_key: PRIVATE_KEY },
    })
  })

  it('keeps the secret on edit unless Override secret is ticked', async () => {
    const { requests } = mockFetch({ 'PUT /api/project/3/keys/5': { status: 204 } })
    renderDialog(deployKey)
    const override = screen.getByRole('checkbox', { name: 'Override secret' })
    expect(override).not.toBeChecked()
    expect(screen.getByRole('combobox', { name: /Type/ })).toHaveAttribute('aria-disabled', 'true')
    expect(field(/^Private key/)).toBeDisabled()
    expect(field(/^Private key/)).toHaveValue('')
    expect(field(/^Private key/)).not.toBeRequired()
    await userEvent.clear(field(/^Name/))
    await userEvent.type(field(/^Name/), 'deploy-2')
    await submit('Save')
    expect(await screen.findByText('Key deploy-2 saved')).toBeInTheDocument()
    expect(requests[0]?.body).toEqual({
      id: 5,
      name: 'deploy-2',
      type: 'ssh',
      project_id: 3,
      override_secret: false,
    })
  })

  it('asks for the new secret once Override secret is ticked', async () => {
    const { requests } = mockFetch({ 'PUT /api/project/3/keys/5': { status: 204 } })
    renderDialog(deployKey)
    await userEvent.click(screen.getByRole('checkbox', { name: 'Override secret' }))
    expect(field(/^Private key/)).toBeEnabled()
    expect(field(/^Private key/)).toBeRequired()
    await submit('Save')
    expect(await screen.findByText('Private key is required')).toBeInTheDocument()
    expect(requests).toHaveLength(0)
    await chooseType('Login with password')
    await userEvent.type(field(/^Login/), 'ci')
    await userEvent.type(field(/^Password/), 'hunter2')
    await submit('Save')
    expect(await screen.findByText('Key deploy saved')).toBeInTheDocument()
    expect(requests[0]?.body).toEqual({
      id: 5,
      name: 'deploy',
      type: 'login_password',
      project_id: 3,
      override_secret: true,
      login_password: { login: 'ci', password: 'hunter2' },
    })
  })

  it('shows the server refusal of a private key in the form', async () => {
    mockFetch({
      'POST /api/project/3/keys': {
        status: 400,
        body: { error: 'The private key can not be used: unsupported key format' },
      },
    })
    const { onClose } = renderDialog(null)
    await userEvent.type(field(/^Name/), 'broken')
    await chooseType('SSH key')
    await userEvent.type(field(/^Private key/), 'not a key')
    await submit('Create')
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The private key can not be used: unsupported key format',
    )
    expect(onClose).not.toHaveBeenCalled()
  })
})
